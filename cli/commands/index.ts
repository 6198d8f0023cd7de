import type { Command } from 'commander';
import { registerProfile } from './profile.ts';
import { registerOpenapi } from './openapi.ts';
import { registerK6 } from './k6.ts';
import { registerGate } from './gate.ts';
import { registerSandbox } from './sandbox.ts';
import { registerSandboxCheck } from './sandbox-check.ts';
import { registerChaos } from './chaos.ts';
import { registerLoad } from './load.ts';
import { registerReport } from './report.ts';
import { registerConformance } from './conformance.ts';
import { registerCompare } from './compare.ts';
import { registerListen } from './listen.ts';
import { registerReplay } from './replay.ts';
import { registerRequirements } from './requirements.ts';

/** Each part of lendcheck adds its subcommand here; the order is the order of --help. */
export const COMMANDS: Array<(program: Command) => void> = [registerGate, registerSandbox, registerSandboxCheck, registerProfile, registerRequirements, registerOpenapi, registerK6, registerChaos, registerLoad, registerReport, registerConformance, registerReplay, registerCompare, registerListen];
