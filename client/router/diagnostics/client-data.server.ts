// /_diag/client-data: what the page's clientLoader and clientAction get from serverLoader() and
// serverAction() (ClientData.tsx).

export function loader() {
  return { served: 'data from the server' };
}

export function action() {
  return { posted: 'the server action ran' };
}
