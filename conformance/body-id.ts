// The rule lives in contract/body-id.ts (detection, the scenarios and listen use it too).
export { findId, listedIds, positionIdIn } from '../contract/body-id.ts';
