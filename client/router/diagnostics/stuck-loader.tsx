import { LoaderMessage } from './loader-message.tsx';

/**
 * A loader that never settles and ignores its signal, as a bug in an app would: the host must
 * still answer at the stream timeout (server/render/page-renderer.ts, untilRendered). The promise
 * it leaves pending is the point; diagnostics exist only with DIAGNOSTICS_TOKEN.
 */
export function loader(): Promise<never> {
  return new Promise<never>(() => undefined);
}

export default function StuckLoader() {
  return <LoaderMessage message={undefined} />;
}
