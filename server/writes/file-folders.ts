import { access, constants, mkdir } from 'node:fs/promises';
import type { FileStorage } from '@remix-run/file-storage';
import { createFsFileStorage } from '@remix-run/file-storage/fs';
import type { Config } from '../config/config.ts';

// The two folders of files (docs/forms.md, "Files and their limits"): UPLOAD_DIR, where uploads
// are written while their request lasts (./form-uploads.ts), and FILES_DIR, where `context.files`
// keeps what actions keep, through @remix-run/file-storage's FileStorage, so an app can put
// another storage (a bucket) behind the same interface.

/**
 * Makes both folders at boot and checks the process may write them: a folder it cannot write
 * would fail every upload, so it stops the boot instead, with one line naming it (the Error's
 * message; its cause is the file system's).
 */
export async function openFileFolders(config: Pick<Config, 'uploadDir' | 'filesDir'>): Promise<FileStorage> {
  for (const [name, dir] of [
    ['UPLOAD_DIR', config.uploadDir],
    ['FILES_DIR', config.filesDir],
  ]) {
    try {
      await mkdir(dir!, { recursive: true, mode: 0o700 });
      await access(dir!, constants.W_OK);
    } catch (error) {
      throw new Error(`cannot write ${name}=${dir}: ${(error as Error).message}`, { cause: error });
    }
  }
  return createFsFileStorage(config.filesDir);
}
