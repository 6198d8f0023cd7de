import { faultRegistry, type NameOf } from '../../faults/index.ts';
import { close } from './close.ts';
import { garbage200 } from './garbage-200.ts';
import { late200 } from './late-200.ts';
import { reset } from './reset.ts';
import { slowBody } from './slow-body.ts';
import { slowHeaders } from './slow-headers.ts';
import { status } from './status.ts';
import { timeout } from './timeout.ts';
import type { ReceiverFault } from './receiver-fault.ts';

/** The receiver's faults, in one typed registry (faults/registry.ts): `RECEIVER_FAULTS.get('late-200')`. */
export const RECEIVER_FAULTS = faultRegistry(timeout, slowHeaders, slowBody, status, reset, close, late200, garbage200);

/** A receiver fault's name, as tsc knows it. */
export type ReceiverFaultName = NameOf<(typeof RECEIVER_FAULTS.all)[number]>;

/** A fault a plan names (text): the receiver's, or undefined. */
export const getFault = (name: string): ReceiverFault | undefined => RECEIVER_FAULTS.find(name);

/** The receiver's fault names, sorted. */
export const faultNames = (): string[] => [...RECEIVER_FAULTS.names].sort();

export { serveToxic } from './door.ts';
export { OK_BODY, answer, drop, receiverFault, type ReceiverEnv, type ReceiverFault, type ReceiverFault as FaultDef, type FaultOutcome } from './receiver-fault.ts';
