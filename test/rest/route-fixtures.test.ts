import { describe, expect, it } from 'vitest';
import { routes } from '../../src/rest/routes.js';
import { fixtureOf, nodeFixtureOf, nodeTypes, staleFixtures, staleNodeFixtures } from '../support/route-fixtures.js';

// The suites that cover every route and every Node type take the lists from the route table and
// the schema; these fail first, and by name, when a route or type has no fixture.

describe('test fixtures of the route table and the Node types', () => {
  it('every route has a fixture with its path parameters and body, and every fixture names a route', () => {
    for (const route of routes) fixtureOf(route);
    expect(staleFixtures()).toEqual([]);
  });

  it('every type implementing Node has a fixture, and every fixture names such a type', () => {
    expect(nodeTypes().length).toBeGreaterThan(0);
    for (const type of nodeTypes()) nodeFixtureOf(type);
    expect(staleNodeFixtures()).toEqual([]);
  });
});
