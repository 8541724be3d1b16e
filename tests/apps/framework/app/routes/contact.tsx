import type { Route } from './+types/contact';
import { getContact } from '../contacts';

export async function loader({ params }: Route.LoaderArgs) {
  const contact = await getContact(params.contactId);
  if (!contact) throw new Response('Not Found', { status: 404 });
  return { contact };
}

export default function Contact({ loaderData, params, matches }: Route.ComponentProps) {
  const { contact } = loaderData;
  return (
    <main id="contact" data-param={params.contactId} data-matches={matches.length}>
      <h1>{`${contact.first} ${contact.last}`}</h1>
    </main>
  );
}
