/** Fails in the loader: the route's boundary shows the digest, the layout above stays. */
export function loader(): never {
  throw new Error('Diagnostic loader error: the loader threw');
}
