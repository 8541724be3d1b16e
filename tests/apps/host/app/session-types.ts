// The session's declared data, checked by `npm run typecheck` in this fixture's own program
// (typecheck:apps), never imported: get() and set() are typed by the keys this app declared
// (./session-data.ts) and refuse a key or a value it did not. Checked here, not in the host's
// program, which holds whatever app is in client/ and that app's keys.
import { expectTypeOf } from 'vitest';
import type { HostSession } from '../../../../shared/host.ts';

export const typedSession = (session: HostSession) => {
  expectTypeOf(session.get('user')).toEqualTypeOf<string | undefined>();
  expectTypeOf(session.get('visits')).toEqualTypeOf<number | undefined>();
  expectTypeOf(session.get('posted')).toEqualTypeOf<string | undefined>();
  // @ts-expect-error: a key no module declared in SessionData
  session.get('ownr');
  // @ts-expect-error: a value of another type than the declared one
  session.set('user', 42);
};
