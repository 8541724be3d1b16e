import { useLoaderData } from 'react-router';

/** Shows whatever message its loader returned (the slow-loader and failing diagnostics). */
export default function LoaderMessage() {
  const data = useLoaderData<{ message: string } | undefined>();
  return (
    <>
      <h1>Diagnostic: loader</h1>
      <p data-testid="loader-message">{data?.message}</p>
    </>
  );
}
