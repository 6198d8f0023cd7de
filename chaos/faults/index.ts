// Importing this module registers every built-in fault.
import './timeout.ts';
import './slow-headers.ts';
import './slow-body.ts';
import './status.ts';
import './reset.ts';
import './close.ts';
import './late-200.ts';
import './garbage-200.ts';
export { registerFault } from '../../faults/index.ts';
export { OK_BODY, faultNames, getFault, type ReceiverFault, type ReceiverFault as FaultDef, type FaultContext, type FaultOutcome } from './registry.ts';
