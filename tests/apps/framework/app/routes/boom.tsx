// A loader that throws with no boundary of its own: the root's ErrorBoundary shows it.
export function loader(): never {
  throw new Error('The framework app’s loader failed on purpose');
}

export default function Boom() {
  return <h1>never</h1>;
}
