import { Form } from 'react-router';
import { HostErrorBoundary } from '../../../shared/host.ts';

/** Fails in the action: the failure pipeline (digest, one line, one report) and the route's boundary. */
export function action(): never {
  throw new Error('Diagnostic action error: the action threw');
}

/** Posts to an action that throws: its boundary shows the digest, with and without JavaScript. */
export default function ActionError() {
  return (
    <>
      <h1>Diagnostic: action</h1>
      <Form method="post">
        <button type="submit" data-testid="action-error-submit">
          Run the failing action
        </button>
      </Form>
    </>
  );
}

export function ErrorBoundary() {
  return <HostErrorBoundary inline />;
}
