import {
  createContext,
  Form,
  useActionData,
  useLoaderData,
  type ClientActionFunctionArgs,
  type ClientLoaderFunctionArgs,
  type MiddlewareFunction,
} from 'react-router';

// /_diag/client-data: a page with React Router framework mode's browser exports, for tests and for
// trying them: a clientLoader that runs at hydration (the server renders HydrateFallback), a
// clientAction and client middleware that hands a value on through React Router's context.

export function loader() {
  return { served: 'data from the server' };
}

export function action() {
  return { posted: 'the server action ran' };
}

const trail = createContext<string>('no middleware');

export const clientMiddleware: MiddlewareFunction[] = [
  ({ context }, next) => {
    context.set(trail, 'client middleware ran');
    return next();
  },
];

export async function clientLoader({ serverLoader, context }: ClientLoaderFunctionArgs) {
  const server = await serverLoader<{ served: string }>();
  return { ...server, inBrowser: 'the clientLoader ran', trail: context.get(trail) };
}
clientLoader.hydrate = true as const;

export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  const server = await serverAction<{ posted: string }>();
  return { ...server, inBrowser: 'the clientAction ran' };
}

export function HydrateFallback() {
  return <p data-testid="hydrate-fallback">Loading in the browser…</p>;
}

export default function ClientData() {
  const data = useLoaderData<Awaited<ReturnType<typeof clientLoader>>>();
  const posted = useActionData<Awaited<ReturnType<typeof clientAction>>>();
  return (
    <>
      <h1>Client data</h1>
      <p data-testid="client-data">{`${data.served}; ${data.inBrowser}; ${data.trail}`}</p>
      <Form method="post">
        <button type="submit" data-testid="client-post">
          Post
        </button>
      </Form>
      {posted !== undefined && <p data-testid="client-action">{`${posted.posted}; ${posted.inBrowser}`}</p>}
    </>
  );
}
