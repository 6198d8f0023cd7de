// Neither package ships type declarations; these are the parts the live-metrics example uses.
declare module 'snappyjs' {
  export function uncompress(input: Uint8Array): Uint8Array;
  export function compress(input: Uint8Array): Uint8Array;
}
declare module 'parse-prometheus-text-format' {
  export interface ParsedSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface ParsedFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: ParsedSample[];
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
