import { citing, endpoints, shapeRequirementOf, specShowsBody, type Profile } from '../../contract/index.ts';
import { CheckSkip, fail, pass, type Check } from '../check.ts';

// Each answer judged once, where it arrived, as Schemathesis does (conformance/answer-rules.ts):
// every success answer to an endpoint called by its name, whichever check sent it, against what
// contract/assertable.ts says may be required of that endpoint's body, the whole body however
// long. This check reports those judgements at the end of the run: a check judges only its own
// rule, and a broken body the check was not looking at still shows, here, naming the exchange
// and the check that sent it.

export function everyAnswerCheck(profile: Profile): Check {
  const all = endpoints(profile);
  return {
    id: 'endpoint.every-success-body',
    title: 'every success answer recorded during the run carries what the spec and the profile say of its body',
    // What judgeSuccess may fail a success answer through (each failure names which): JSON, the
    // public wrapper, and the shape of each body the spec shows (issue 47: every failing rule cites its sentence).
    requirements: [...new Set(['EP-json', 'PUB-envelope', ...all.filter((e) => e.access !== 'sandbox' && specShowsBody(e)).map(shapeRequirementOf).filter((q): q is string => !!q)])],
    phase: 'final',
    judgesRun: true,
    async run(ctx) {
      const answers = ctx.answers;
      if (!answers) throw new CheckSkip('this run judged no answer on arrival (its context has no answer rules)');
      const first = answers.broken[0];
      if (first) {
        const { exchange: x, endpoint: e, check, finding } = first;
        const more = answers.broken.length - 1;
        fail(
          `every success answer carries what the spec and the profile say of its body (${x.method} ${new URL(x.url).pathname} → ${x.status}, ${e.id}, sent by ${check || 'the run'})`,
          finding.expected,
          `${finding.received}${citing(finding)}${more ? ` (and ${more} more broken answer${more === 1 ? '' : 's'})` : ''}`,
          x,
        );
      }
      for (const { finding: a, exchange: x, more } of answers.advised.values()) ctx.advise({ ...a, received: `${a.received}${more ? ` (and in ${more} more answers)` : ''}` }, x);
      if (!answers.judged) throw new CheckSkip('no success answer to an endpoint of the table came back during the run, so no body was judged');
      ctx.note(`${answers.judged} success answers judged as they arrived, each whole`);
      return pass();
    },
  };
}
