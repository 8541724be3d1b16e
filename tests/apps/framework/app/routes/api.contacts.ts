import { getContacts } from '../contacts';

// A resource route: no component, its loader's Response is the answer (useFetcher loads it).
export async function loader() {
  return Response.json({ count: (await getContacts()).length });
}
