import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { hostOf } from '../../../../shared/host.ts';

// What loaders and actions can answer, chosen by `?do=`: the writes routes of the fixture app
// (./routes/writes.tsx, writes-api.ts, writes-limited.ts, writes-bad-limits.ts).

declare module '../../../../shared/host.ts' {
  interface SessionData {
    /** The fixture page's visits by this session (the session round trip). */
    visits: number;
  }
}

function answer(todo: string | null, body: unknown) {
  switch (todo) {
    case 'redirect-with-cookies':
      return redirect('/fixture/after', {
        headers: [
          ['Set-Cookie', 'a=1; Path=/'],
          ['Set-Cookie', 'b=2; Path=/'],
          ['X-Route', 'writes'],
        ],
      });
    case 'redirect-elsewhere':
      return redirect('https://evil.example/steal');
    case 'bad-request':
      throw data('The fixture says no', { status: 400 });
    case 'not-found':
      throw data(null, { status: 404 });
    case 'throw':
      throw new Error('The writes fixture failed on purpose');
    case 'headers':
      return data(
        { body },
        {
          headers: [
            ['Set-Cookie', 'c=3; Path=/'],
            ['Set-Cookie', 'd=4; Path=/'],
            ['Content-Type', 'text/evil'],
          ],
        },
      );
    case 'own-cache-control':
      return data({ body }, { headers: { 'Cache-Control': 'public, max-age=60' } });
    default:
      return { body };
  }
}

/** Without `?do=`, counts this session's visits: the session round trip. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const { session } = hostOf(context);
  const todo = new URL(request.url).searchParams.get('do');
  // One user's answers that ask to be public: the host must not let them be.
  if (todo === 'read-session')
    return data({ visits: Number(session.get('visits') ?? 0) }, { headers: { 'Cache-Control': 'public, max-age=60' } });
  if (todo === 'count-and-cache') {
    session.set('visits', Number(session.get('visits') ?? 0) + 1);
    return data({ counted: true }, { headers: { 'Cache-Control': 'public, max-age=60' } });
  }
  if (todo !== null) return answer(todo, null);
  const visits = Number(session.get('visits') ?? 0) + 1;
  session.set('visits', visits);
  return { visits };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const host = hostOf(context);
  const { session } = host;
  const todo = new URL(request.url).searchParams.get('do');
  // Sign-out; `sign-out-then-count` signs out and starts a new session in the same answer.
  if (todo === 'sign-out' || todo === 'sign-out-then-count') {
    session.destroy();
    if (todo === 'sign-out-then-count') session.set('visits', 100);
    return redirect('/writes');
  }
  if (todo === 'log') host.log.info({ note: 'from the action' }, 'the action logged');
  // A rule as an app might get it wrong: a window of a week (context.limit takes up to a day).
  if (todo === 'limit-a-week') return { retryAfter: await host.limit('weekly', { limit: 5, windowMs: 7 * 24 * 60 * 60 * 1000 }) };
  const type = request.headers.get('content-type') ?? '';
  // The body exactly as the action receives it: its type and its text.
  if (new URL(request.url).searchParams.get('do') === 'raw') return { type, text: await request.text() };
  // The form through the host's helper: each file held to the route's limit.
  if (new URL(request.url).searchParams.get('do') === 'parse') {
    const { fields, files, tooLarge } = await host.parseForm(request);
    return { fields: [...fields], files: files.map(({ name, file }) => ({ name, filename: file.name, size: file.size })), tooLarge };
  }
  // Each file kept under its field's name, then read back from where it was kept.
  if (todo === 'keep') {
    const { files } = await host.parseForm(request);
    for (const { name, file } of files) await host.files.set(`kept/${name}`, file);
    const kept = files.map(async ({ name }) => {
      const file = await host.files.get(`kept/${name}`);
      return file && { filename: file.name, type: file.type, text: await file.text() };
    });
    return { kept: await Promise.all(kept) };
  }
  // Answers before reading the body at all (an action that refuses early).
  if (todo === 'unread') return { unread: true };
  // A form as its entries, in order (repeated names kept), a file as what it is.
  const entries = (form: FormData) =>
    [...form.entries()].map(([name, value]) => [
      name,
      typeof value === 'string' ? value : { file: value.name, type: value.type, size: value.size },
    ]);
  const body: unknown = type.includes('json') ? await request.json() : entries(await request.formData());
  return answer(new URL(request.url).searchParams.get('do'), body);
}
