import { describe, expect, it } from 'vitest';
import { eventEnvelope, positionMatchedData } from '../../contract/index.ts';
import { EVENT_TYPES, makeEvent, shapes } from './events.ts';
import { findLooseSignatureCompares } from './source-checks.ts';

describe('certifier event data', () => {
  it.each(EVENT_TYPES)('%s parses with the envelope and the data shape of the contract', (type) => {
    const e = makeEvent(type);
    expect(eventEnvelope.safeParse(e).success).toBe(true);
    const r = shapes.eventDataShapes[type].safeParse(e.data);
    expect(r.error?.issues ?? []).toEqual([]);
    if (type === 'position.matched') expect(positionMatchedData.safeParse(e.data).success).toBe(true);
  });
});

describe('source inspection heuristic', () => {
  it('flags equality on signature-like operands and ignores harmless comparisons', () => {
    expect(findLooseSignatureCompares('if (parts.v1 == expected) ok();')).toEqual(['line 1: parts.v1 == expected']);
    expect(findLooseSignatureCompares('const bad = sig !== computed;')).toHaveLength(1);
    expect(findLooseSignatureCompares("if (sig === undefined || type === 'position.matched' || sig.length === 64) x();")).toEqual([]);
  });
});
