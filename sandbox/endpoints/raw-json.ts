// A success body already serialised (a list page assembled from SQLite's JSON text per row):
// the handler sends it as is instead of building objects only to stringify them again.
export class RawJson {
  constructor(readonly text: string) {}
}
