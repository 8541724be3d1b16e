// An entry's attached file: kept in the host's file storage (hostOf(context).files, FILES_DIR:
// docs/forms.md, "Files and their limits") under the entry's id, and sent back as a download.
import type { HostContext } from '../../../shared/host.ts';

const keyOf = (entryId: string) => `guestbook/${entryId}`;

export function keepAttachment(host: HostContext, entryId: string, file: File): Promise<void> {
  return Promise.resolve(host.files.set(keyOf(entryId), file));
}

export async function removeAttachments(host: HostContext, entryIds: readonly string[]): Promise<void> {
  await Promise.all(entryIds.map((id) => host.files.remove(keyOf(id))));
}

/** RFC 6266's filename for a download: an ASCII fallback, and the name itself percent-encoded (RFC 8187). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The file as a download, never shown inline: what a visitor uploaded is not this site's to
 * render on its own origin (an HTML or SVG file would run as the site's page), so it is sent as
 * bytes, to be saved, in a sandbox in case a browser renders it anyway. Null when it is gone.
 */
export async function attachmentResponse(host: HostContext, entryId: string, name: string): Promise<Response | null> {
  const file = await host.files.get(keyOf(entryId));
  if (file === null) return null;
  return new Response(file.stream(), {
    headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(file.size),
      'Content-Disposition': contentDisposition(name),
      'Content-Security-Policy': "sandbox; default-src 'none'",
      // Anyone's file, for as long as its entry lasts: kept by no cache past a check.
      'Cache-Control': 'no-cache',
    },
  });
}
