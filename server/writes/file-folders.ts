import { access, constants, lstat, mkdir } from 'node:fs/promises';
import type { FileStorage } from '@remix-run/file-storage';
import { createFsFileStorage } from '@remix-run/file-storage/fs';
import type { Config } from '../config/config.ts';

// The two folders of files (docs/forms.md, "Files and their limits"): UPLOAD_DIR, where uploads
// are written while their request lasts (./form-uploads.ts), and FILES_DIR, where `context.files`
// keeps what actions keep, through @remix-run/file-storage's FileStorage, so an app can put
// another storage (a bucket) behind the same interface.

/** Write permission for the group or others (stat(2)'s S_IWGRP | S_IWOTH). */
const WRITABLE_BY_OTHERS = 0o022;

/**
 * UPLOAD_DIR holds each request's folder: anyone else who may write in it could swap one for a
 * link elsewhere between its making and its writing. So it must be a real folder of this
 * process's user that no one else may write (the error names what is wrong), not a link.
 */
async function checkPrivate(dir: string): Promise<void> {
  const stats = await lstat(dir);
  const uid = process.getuid?.();
  if (!stats.isDirectory()) throw new Error('it is not a folder (a link is refused)');
  if (uid !== undefined && stats.uid !== uid) throw new Error(`it belongs to uid ${stats.uid}, not this process's (${uid})`);
  if ((stats.mode & WRITABLE_BY_OTHERS) !== 0)
    throw new Error(`others may write in it (mode ${(stats.mode & 0o777).toString(8)}): chmod go-w`);
}

/**
 * Makes both folders at boot and checks the process may write them: a folder it cannot write
 * would fail every upload, so it stops the boot instead, with one line naming it (the Error's
 * message; its cause is the file system's).
 */
export async function openFileFolders(config: Pick<Config, 'uploadDir' | 'filesDir'>): Promise<FileStorage> {
  const folders = [
    { name: 'UPLOAD_DIR', dir: config.uploadDir, private: true },
    { name: 'FILES_DIR', dir: config.filesDir, private: false },
  ];
  for (const folder of folders) {
    try {
      await mkdir(folder.dir, { recursive: true, mode: 0o700 });
      await access(folder.dir, constants.W_OK);
      if (folder.private) await checkPrivate(folder.dir);
    } catch (error) {
      throw new Error(`cannot use ${folder.name}=${folder.dir}: ${(error as Error).message}`, { cause: error });
    }
  }
  return createFsFileStorage(config.filesDir);
}
