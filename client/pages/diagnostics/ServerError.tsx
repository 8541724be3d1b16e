export default function ServerError(): never {
  throw new Error('Diagnostic server error: render threw before the shell');
}
