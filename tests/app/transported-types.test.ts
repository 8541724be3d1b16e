import { describe, expectTypeOf, it } from 'vitest';
import type { data } from 'react-router';
import type { ActionData, LoaderData } from '../../client/router/both/route-entry.ts';

// What a component is told it reads is what arrives: route data travels as JSON. These are
// checked by the compiler (`npm run typecheck`, which CI runs); the test run only lists them.

describe('the types of route data in the page', () => {
  it('a Date arrives as its ISO string, nested too; functions and undefined fields are dropped', () => {
    type Loader = () => { at: Date; nested: { at: Date; list: Date[] }; fn: () => number; gone: undefined };
    expectTypeOf<LoaderData<Loader>>().toEqualTypeOf<{ at: string; nested: { at: string; list: string[] } }>();
  });

  it('a top-level promise stays a promise of its transported value; a nested Map is an empty object', () => {
    type Loader = () => Promise<{ later: Promise<{ at: Date }>; map: Map<string, number> }>;
    expectTypeOf<LoaderData<Loader>>().toEqualTypeOf<{ later: Promise<{ at: string }>; map: Record<string, never> }>();
  });

  it('data(value, init) carries its value; a redirect Response carries nothing', () => {
    type Action = () => ReturnType<typeof data<{ errors: { name: string } }>> | Response;
    expectTypeOf<ActionData<Action>>().toEqualTypeOf<{ errors: { name: string } }>();
  });
});
