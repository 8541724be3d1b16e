import { useParams } from 'react-router';

/** The page of every synthetic route (a benchmark's, vite.config.ts): as small as a page gets. */
export default function Synthetic() {
  const { id } = useParams();
  return (
    <>
      <h1>Synthetic page</h1>
      <p>{`Item ${id ?? ''}.`}</p>
    </>
  );
}
