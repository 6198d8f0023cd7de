export { atSeam, configProblem, faultNames, faultsAt, getFault, registerFault, validateFaults, type Fault, type FaultSetting, type Installed, type Seam } from './fault.ts';
export { parseFaultFlag } from './flag.ts';
