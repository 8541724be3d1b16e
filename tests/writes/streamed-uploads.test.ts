import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_DIGEST } from '../../shared/digest-proof.ts';
import { isAccessLine } from '../../shared/log-line.ts';
import { collect, openSocket, parseResponse, statusesIn } from '../support/raw-http.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { APP_BUILDS } from '../support/test-app.ts';
import { memoryMb } from '../../tools/bench/proc.ts';
import { postStreamedUpload } from '../../tools/harness/streamed-upload.ts';

// Uploads that never sit in memory (server/writes/form-uploads.ts): the built server runs the
// fixture app's writes route (tests/apps/host/app/writes.server.ts), whose `?do=parse` reads the
// form through the host's helper, files to UPLOAD_DIR, each removed when its answer has ended.
// The same at 8 × 100 MB is `npm run soak`'s (tools/soak/uploads.ts).

const MB = 1_000_000;
const MIB = 1_048_576;
const CLIENTS = 8;
const UPLOAD_BYTES = 20 * MB;
/** The warm-up burst: past V8's external-memory trigger (64 MB in all), as the soak's (tools/soak/uploads.ts). */
const WARM_UP_BYTES = 10 * MB;
/** The bound: eight uploads at once may raise the server's peak memory by this much at most. */
const PEAK_GROWTH_MB = 64;
const BOUNDARY = 'str3amed';

const upload = (url: string, size: number) => postStreamedUpload(`${url}/api/writes?do=parse`, size);

/** The files under `dir` the process holds open (deleted ones included: Linux names them so). */
function openUnder(pid: number, dir: string): string[] {
  const fds = readdirSync(`/proc/${pid}/fd`);
  return fds.flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return []; // closed between the listing and the read
    }
  });
}

/** Resolves once `dir` is empty: each answer's folder goes when its connection has closed. */
async function emptied(dir: string): Promise<string[]> {
  for (let tries = 0; tries < 100 && readdirSync(dir).length > 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  return readdirSync(dir);
}

describe('streamed uploads', () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'uploads-'));
  const filesDir = mkdtempSync(join(tmpdir(), 'files-'));
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      APP_BUILD: APP_BUILDS.host,
      UPLOAD_DIR: uploadDir,
      FILES_DIR: filesDir,
      BODY_MAX_BYTES: String(24 * MIB),
      BODY_MAX_FILE_BYTES: String(24 * MIB),
    });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(uploadDir, { recursive: true, force: true });
    rmSync(filesDir, { recursive: true, force: true });
  });

  it(`${CLIENTS} clients uploading 20 MB each raise a warmed server's peak memory by under 64 MiB, and leave no file behind`, async () => {
    // Warmed as a replica that takes uploads is, by a burst of smaller files: the first burst
    // after a cold start grows RSS by about 65 MB once and keeps it, the chunks V8 lets pile up
    // before its external-memory trigger collects them, whatever the files' sizes (docs/forms.md).
    const warming = await Promise.all(Array.from({ length: CLIENTS }, () => upload(server.url, WARM_UP_BYTES)));
    await Promise.all(warming.map((res) => res.text()));
    const idle = memoryMb(server.pid, 'VmRSS');
    // Linux resets the peak (VmHWM) to the current RSS on "5" (proc(5), /proc/pid/clear_refs).
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const answers = await Promise.all(Array.from({ length: CLIENTS }, () => upload(server.url, UPLOAD_BYTES)));
    const peak = memoryMb(server.pid, 'VmHWM');
    const bodies = await Promise.all(answers.map((res) => res.json()));
    expect(answers.map((res) => res.status)).toEqual(Array(CLIENTS).fill(200));
    for (const body of bodies)
      expect(body).toEqual({
        fields: [['title', 'kept']],
        files: [{ name: 'upload', filename: 'big.bin', size: UPLOAD_BYTES }],
        tooLarge: [],
      });
    expect(peak - idle).toBeLessThan(PEAK_GROWTH_MB);
    expect(await emptied(uploadDir)).toEqual([]);
    expect(server.logs.failureCount()).toBe(0);
  });

  it('an upload past the whole cap mid-file is a 413 that leaves no file open or behind, and no failure line', async () => {
    const res = await upload(server.url, 30 * MB);
    expect(res.status).toBe(413);
    expect(await emptied(uploadDir)).toEqual([]);
    // A write left open would keep its deleted file's space until the process ends.
    expect(openUnder(server.pid, uploadDir)).toEqual([]);
    expect(server.logs.failureCount()).toBe(0);
  });

  it('a client that leaves mid-upload leaves no file behind and no failure line', async () => {
    const before = server.logs.accessLines().length;
    const socket = await openSocket(server.url);
    const declared = 10 * MB;
    socket.write(
      `POST /api/writes?do=parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    socket.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; filename="cut.bin"\r\n\r\n`);
    socket.write(Buffer.alloc(2 * MB, 'y'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await server.logs.waitFor((line) => isAccessLine(line) && server.logs.accessLines().length > before);
    expect(await emptied(uploadDir)).toEqual([]);
    expect(openUnder(server.pid, uploadDir)).toEqual([]);
    expect(server.logs.failureCount()).toBe(0);
  });

  it('an action that has not read the upload has not been sent 100 Continue: nothing is read before it reads', async () => {
    const socket = await openSocket(server.url);
    const answered = collect(socket);
    socket.write(
      `POST /api/writes?do=unread HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${MB}\r\n\r\n`,
    );
    const raw = await answered;
    expect(raw).not.toContain('100 Continue');
    expect(parseResponse(raw).status).toBe(200);
  });

  it('an action that answers before it reads the upload reads the rest and drops it: the connection serves the next request', async () => {
    const socket = await openSocket(server.url);
    const head = `POST /api/writes?do=unread HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${2 * MB}\r\n\r\n`;
    socket.write(head);
    socket.write(Buffer.alloc(2 * MB, 'z'));
    socket.write('GET /api/writes?do=read-session HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    const raw = await collect(socket);
    // Both answered on the one connection: the upload's rest was read, not left to reset it.
    expect(statusesIn(raw)).toEqual([200, 200]);
    expect(raw).toContain('{"unread":true}');
  });

  it('an upload whose client stops sending after the answer is read for at most LINGER_MS, then its connection is cut', async () => {
    const socket = await openSocket(server.url);
    const answered = collect(socket);
    // The first bytes of a 20 MB body with the headers, the rest never sent.
    socket.write(
      `POST /api/writes?do=unread HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${20 * MB}\r\n\r\n--${BOUNDARY}\r\n`,
    );
    // Resolves only when the server closes the connection.
    const res = parseResponse(await answered);
    expect(res.status).toBe(200);
    expect(res.body).toContain('{"unread":true}');
  });

  it('a file the action keeps outlives its request in FILES_DIR, and reads back as it was sent', async () => {
    const form = new FormData();
    form.append('note', new File(['kept across the answer'], 'note.txt', { type: 'text/plain' }));
    const res = await fetch(`${server.url}/api/writes?do=keep`, { method: 'POST', body: form });
    expect(await res.json()).toEqual({ kept: [{ filename: 'note.txt', type: 'text/plain', text: 'kept across the answer' }] });
    expect(await emptied(uploadDir)).toEqual([]);
    expect(readdirSync(filesDir).length).toBeGreaterThan(0);
  });

  it('an UPLOAD_DIR the process cannot use stops the boot with one line naming it (the checks: file-folders.test.ts)', async () => {
    // A file where the folder would be: neither root nor anyone else can make a folder under it.
    const blocker = join(uploadDir, 'is-a-file');
    writeFileSync(blocker, '');
    const failed = startServer({ APP_BUILD: APP_BUILDS.host, UPLOAD_DIR: join(blocker, 'dir') });
    await expect(failed).rejects.toThrow(/exited with 1[\s\S]*cannot use UPLOAD_DIR=/);
    rmSync(blocker);
  });

  it('a file the server cannot write is a 500 with a digest and one failure line, never a hang', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uploads-gone-'));
    const own = await startServer({ APP_BUILD: APP_BUILDS.host, UPLOAD_DIR: dir });
    try {
      // The folder gone after the boot checked it, a file in its place: no request folder can be made.
      rmSync(dir, { recursive: true });
      writeFileSync(dir, '');
      const res = await upload(own.url, MB);
      expect(res.status).toBe(500);
      const body = (await res.json()) as { error: { digest?: string } };
      expect(body.error.digest).toMatch(SERVER_DIGEST);
      expect(own.logs.failures(res.headers.get('x-request-id')!)).toHaveLength(1);
    } finally {
      await own.stop();
      rmSync(dir, { force: true });
    }
  });
});
