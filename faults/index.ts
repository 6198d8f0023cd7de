export { atSeam, configProblem, defineFault, type Fault, type FaultSetting, type HttpSeam, type Installed, type Seam } from './fault.ts';
export { chain, seeded, withToxicity, type Direction, type HttpFault, type Next, type Toxic } from './http.ts';
export { faultRegistry, type FaultRegistry, type NameOf } from './registry.ts';
export { parseFaultFlag } from './flag.ts';
