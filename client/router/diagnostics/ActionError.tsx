import { Form } from 'react-router';

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
