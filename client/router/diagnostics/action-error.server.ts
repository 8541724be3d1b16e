/** Fails in the action: the failure pipeline (digest, one line, one report) and the route's boundary. */
export function action(): never {
  throw new Error('Diagnostic action error: the action threw');
}
