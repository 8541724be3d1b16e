// PLACEHOLDER until the request-body branch lands: urlencoded and JSON, capped.
import type { Request } from 'express';
import type { RequestBody } from '../shared/page-seam.ts';
import { limitBody } from './body-limit.ts';
import { httpError } from './failures/http-error.ts';

const MAX_BODY_BYTES = 65_536;

export async function readRequestBody(req: Request): Promise<RequestBody> {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- placeholder
  await new Promise<void>((resolve, reject) =>
    limitBody(MAX_BODY_BYTES)(req, req.res!, (error?: unknown) => (error ? reject(error as Error) : resolve())),
  );
  const buffer = req.body as Buffer;
  const text = buffer.toString('utf8');
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) {
    try {
      return { json: JSON.parse(text) as unknown };
    } catch {
      throw httpError(400, 'Malformed JSON body');
    }
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(text)) form.append(name, value);
    return { form };
  }
  throw httpError(415, 'Unsupported Content-Type');
}
