// An upload as a browser's form posts it, made as it is sent: one text field and one file of any
// size, in 64 KiB chunks of one buffer, so the client holds none of it (the uploads test,
// tests/writes/streamed-uploads.test.ts, and the soak's, tools/soak/uploads.ts).

const BOUNDARY = 'str3amed-upl0ad';
const CHUNK = Buffer.alloc(64 * 1_024, 'x');

function streamedForm(size: number): ReadableStream<Uint8Array> {
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nkept\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  let sent = -1;
  return new ReadableStream({
    pull(controller) {
      if (sent === -1) {
        controller.enqueue(Buffer.from(head));
        sent = 0;
      } else if (sent < size) {
        const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, size - sent));
        controller.enqueue(chunk);
        sent += chunk.length;
      } else {
        controller.enqueue(Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
        controller.close();
      }
    },
  });
}

/** Posts the form with a `title` of "kept" and an `upload` of `size` bytes to `url`. */
export function postStreamedUpload(url: string, size: number): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: streamedForm(size),
    duplex: 'half',
  } as RequestInit);
}
