import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileFolders } from '../../server/writes/file-folders.ts';

// The boot's checks of UPLOAD_DIR and FILES_DIR (server/writes/file-folders.ts): each folder made
// if missing and writable; UPLOAD_DIR, which holds each request's folder, also the process's own
// and no one else's to write, not a link. A refusal is the boot's one line (its message); the
// stop itself is in streamed-uploads.test.ts.

describe('the folders of files', () => {
  const root = mkdtempSync(join(tmpdir(), 'file-folders-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const at = (name: string) => join(root, `${name}-${Math.random()}`);

  it('are made if missing, UPLOAD_DIR owner-only; FILES_DIR may be shared read-only with others', async () => {
    const [uploadDir, filesDir] = [at('uploads'), at('files')];
    mkdirSync(filesDir, { mode: 0o755 });
    chmodSync(filesDir, 0o755);
    const files = await openFileFolders({ uploadDir, filesDir });
    expect(statSync(uploadDir).mode & 0o777).toBe(0o700);
    await files.set('k', new File(['kept'], 'k.txt'));
    expect(await (await files.get('k'))!.text()).toBe('kept');
  });

  it.each([
    ['a file in its place', (dir: string) => writeFileSync(dir, ''), /^cannot use UPLOAD_DIR=.*: EEXIST/],
    [
      'a folder others may write in',
      (dir: string) => {
        mkdirSync(dir);
        chmodSync(dir, 0o777);
      },
      /^cannot use UPLOAD_DIR=.*: others may write in it \(mode 777\): chmod go-w$/,
    ],
    [
      'a link to a folder',
      (dir: string) => symlinkSync(mkdtempSync(join(tmpdir(), 'elsewhere-')), dir),
      /^cannot use UPLOAD_DIR=.*: it is not a folder/,
    ],
  ])('refuse an UPLOAD_DIR that is %s, naming it and why', async (_what, make, reason) => {
    const uploadDir = at('uploads');
    make(uploadDir);
    await expect(openFileFolders({ uploadDir, filesDir: at('files') })).rejects.toThrow(reason);
  });

  it('refuse a FILES_DIR it cannot make, naming it', async () => {
    const blocker = at('blocker');
    writeFileSync(blocker, '');
    await expect(openFileFolders({ uploadDir: at('uploads'), filesDir: join(blocker, 'files') })).rejects.toThrow(/^cannot use FILES_DIR=/);
  });
});
