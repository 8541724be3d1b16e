// The tutorial's fake database, cut down: a few contacts in memory, read by loaders.
export interface Contact {
  id: string;
  first: string;
  last: string;
}

const contacts: Contact[] = [
  { id: 'shruti', first: 'Shruti', last: 'Kapoor' },
  { id: 'glenn', first: 'Glenn', last: 'Reyes' },
];

export const getContacts = async (): Promise<Contact[]> => contacts;
export const getContact = async (id: string): Promise<Contact | undefined> => contacts.find((contact) => contact.id === id);
