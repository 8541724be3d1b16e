// A loader that throws with no boundary above it (the root has none): the host answers its own
// error page (server/render/host-build.ts); the floor, React Router's default root boundary.

export function loader(): never {
  throw new Error('bench: the loader threw on purpose, under no boundary');
}

export default function Crash() {
  return <h1>Never rendered</h1>;
}
