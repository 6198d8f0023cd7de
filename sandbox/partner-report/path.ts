import { CONTROLS_PREFIX } from '../../contract/routes.ts';

// Where the sandbox's controls live and the report's own among them, apart from the recorder
// so that light callers (lendcheck/testcontainers) read them without loading the pipeline.

/** The sandbox's controls (the clock, funding, the report itself) are the test's calls, not the
 *  partner's code at work: no real service has them, so no rule of the interface applies. */
export { CONTROLS_PREFIX };

/** The report's own control: this plugin's route (no endpoint of the table), among the controls. */
export const PARTNER_REPORT_PATH = `${CONTROLS_PREFIX}partner-report`;
