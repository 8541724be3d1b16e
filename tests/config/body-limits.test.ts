import { describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMITS, routeBodyLimits } from '../../server/config/body-limits.ts';
import { loadConfig } from '../../server/config/config.ts';

// The limits of an action's body (server/config/body-limits.ts): BODY_MAX_* at boot, a route's
// own `bodyLimits` when it is first posted to. Over HTTP: tests/writes/upload-limits.test.ts.

describe('body limits', () => {
  it('default to the limits the host always had', () => {
    expect(loadConfig({}).body).toEqual({
      maxBytes: 1_048_576,
      maxTextBytes: 65_536,
      maxFileBytes: 524_288,
      maxFiles: 4,
      maxFields: 256,
      maxFieldBytes: 65_536,
    });
  });

  it.each([
    // An upload streams to disk, bounded by its time: past 512 MiB it belongs in storage directly.
    [{ BODY_MAX_BYTES: '536870913' }, 'Invalid BODY_MAX_BYTES="536870913": expected an integer from 1024 to 536870912'],
    [{ BODY_MAX_TEXT_BYTES: '100' }, 'Invalid BODY_MAX_TEXT_BYTES="100": expected an integer from 1024 to 16777216'],
    [{ BODY_MAX_FILE_BYTES: '0' }, 'Invalid BODY_MAX_FILE_BYTES="0": expected an integer from 1 to 536870912'],
    [
      { BODY_MAX_FILE_BYTES: '10485760' },
      'Invalid BODY_MAX_FILE_BYTES="10485760": expected at most BODY_MAX_BYTES (1048576): a larger file is refused with its body',
    ],
    [{ BODY_MAX_FILES: '-1' }, 'Invalid BODY_MAX_FILES="-1": expected an integer from 0 to 1000'],
    [{ BODY_MAX_FIELDS: '5000' }, 'Invalid BODY_MAX_FIELDS="5000": expected an integer from 1 to 1000'],
    [{ BODY_MAX_FIELD_BYTES: '1e6' }, 'Invalid BODY_MAX_FIELD_BYTES="1e6": expected an integer from 1 to 16777216'],
  ])('refuse %o at boot with a message naming the variable and the value', (env, message) => {
    expect(() => loadConfig(env)).toThrow(expect.objectContaining({ name: 'ConfigError', message }));
  });

  it('a file limit as large as the whole body is allowed', () => {
    expect(loadConfig({ BODY_MAX_BYTES: '4096', BODY_MAX_FILE_BYTES: '4096' }).body).toMatchObject({ maxBytes: 4096, maxFileBytes: 4096 });
  });

  it("a route's own limits replace the defaults it names, and only those", () => {
    expect(routeBodyLimits(DEFAULT_BODY_LIMITS, { maxBytes: 8_388_608, maxFileBytes: 4_194_304 }, 'photos')).toEqual({
      ...DEFAULT_BODY_LIMITS,
      maxBytes: 8_388_608,
      maxFileBytes: 4_194_304,
    });
    expect(routeBodyLimits(DEFAULT_BODY_LIMITS, undefined, 'plain')).toBe(DEFAULT_BODY_LIMITS);
  });

  it.each([
    [{ maxBytes: 600_000_000 }, 'Route "r" exports bodyLimits with maxBytes=600000000: expected an integer from 1024 to 536870912'],
    // A form or JSON is held whole: 16 MiB at most.
    [{ maxTextBytes: 20_000_000 }, 'Route "r" exports bodyLimits with maxTextBytes=20000000: expected an integer from 1024 to 16777216'],
    [{ maxFields: 1.5 }, 'Route "r" exports bodyLimits with maxFields=1.5: expected an integer from 1 to 1000'],
    [{ maxFiles: '4' }, 'Route "r" exports bodyLimits with maxFiles=4: expected an integer from 0 to 1000'],
    [{ maxFileSize: 10 }, 'Route "r" exports bodyLimits with an unknown limit "maxFileSize"'],
    [{ maxFileBytes: 2_097_152 }, 'Route "r" exports bodyLimits with maxFileBytes=2097152 over its maxBytes (1048576): raise maxBytes too'],
    [42, 'Route "r" exports bodyLimits that is not an object'],
  ])("a route's %o is its bug, named", (own, message) => {
    expect(() => routeBodyLimits(DEFAULT_BODY_LIMITS, own, 'r')).toThrow(message);
  });
});
