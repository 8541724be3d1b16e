import { data, isRouteErrorResponse, useRouteError } from 'react-router';
import { findNote } from '../notes.server.ts';
import type { Route } from './+types/note';

// One note: an unknown one is the app's own 404, which its own boundary shows inside the layout.

export function loader({ params }: Route.LoaderArgs) {
  const note = findNote(Number(params.id));
  if (note === undefined) throw data('No such note', { status: 404 });
  return note;
}

export default function NotePage({ loaderData }: Route.ComponentProps) {
  return <h1>{`${loaderData.name}: ${loaderData.message}`}</h1>;
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <div data-testid="note-missing">
      <h1>{isRouteErrorResponse(error) ? String(error.data) : 'This note could not be shown'}</h1>
    </div>
  );
}
