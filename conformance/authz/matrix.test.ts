import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defaultProfile, endpoints, parseProfile, type Endpoint } from '../../contract/index.ts';
import { SAMPLE_BODIES } from './cells.ts';
import { matrixCells, unmarked } from './matrix.ts';

// The matrix is the table's owned rows, by construction: every authenticated row states what
// it owns (or `owns: false`), every row naming an owned object in its path owns it, every owned
// `key` row is a cell, and a row added to the table with `owns` becomes a cell with no new code.

const VARIANTS = [
  defaultProfile,
  parseProfile({ webhooks: { listAndDelete: false } }),
  parseProfile({ webhooks: { listAndDelete: false, deleteWithoutList: true } }),
];

describe('the authorization matrix', () => {
  for (const profile of VARIANTS) {
    const table = endpoints(profile);
    const tag = `list ${profile.webhooks.listAndDelete}, delete ${profile.webhooks.listAndDelete || profile.webhooks.deleteWithoutList}`;

    it(`every authenticated row of the table states its ownership (${tag})`, () => {
      expect(unmarked(table)).toEqual([]);
    });

    it(`holds every owned authenticated row, and nothing else (${tag})`, () => {
      const owned = table.filter((e) => e.access === 'key' && e.owns).map((e) => e.id).sort();
      expect(matrixCells(profile).map((c) => c.endpoint.id).sort()).toEqual(owned);
      expect(owned).toEqual(expect.arrayContaining(['position.get', 'position.repay', 'position.cancel', 'position.patch', 'positions.list', 'user.withdraw', 'webhooks.create']));
    });

    it(`has a request body for every owned row that takes one (${tag})`, () => {
      for (const c of matrixCells(profile)) if (c.endpoint.body) expect(SAMPLE_BODIES[c.endpoint.id], c.endpoint.id).toBeTypeOf('function');
    });
  }

  it('fails a row that names an owned object and states no ownership (the test above is not vacuous)', () => {
    const base = endpoints(defaultProfile);
    const forgotten: Endpoint = { id: 'position.history', method: 'GET', path: '/positions/{positionId}/history', access: 'key', summary: 'x', response: z.object({}), responseSource: 'profile', requirements: [] };
    expect(unmarked([...base, forgotten])).toEqual(['position.history: states no ownership (owns)', 'position.history: names {positionId} in its path but owns nothing']);
    expect(unmarked([...base, { ...forgotten, owns: false }])).toEqual(['position.history: names {positionId} in its path but owns nothing']);
  });

  it('makes a new owned row a cell with no new code', () => {
    const row: Endpoint = { id: 'position.history', method: 'GET', path: '/positions/{positionId}/history', access: 'key', summary: 'x', response: z.object({}), responseSource: 'profile', requirements: [], owns: { object: 'position', param: 'positionId', verb: 'read' } };
    const cells = matrixCells(defaultProfile, [...endpoints(defaultProfile), row]);
    expect(cells.find((c) => c.endpoint.id === 'position.history')?.route).toBe('GET /positions/{positionId}/history');
  });

  it('orders creations before lists, reads and changes (B\'s own user exists before it is listed)', () => {
    const verbs = matrixCells(defaultProfile).map((c) => c.owns.verb);
    expect(verbs).toEqual([...verbs].sort((a, b) => ['create', 'list', 'read', 'change'].indexOf(a) - ['create', 'list', 'read', 'change'].indexOf(b)));
  });
});
