/** What the slow, stuck, failing and redirecting loaders' pages show: the message their loader returned. */
export function LoaderMessage({ message }: { message: string | undefined }) {
  return (
    <>
      <h1>Diagnostic: loader</h1>
      <p data-testid="loader-message">{message}</p>
    </>
  );
}
