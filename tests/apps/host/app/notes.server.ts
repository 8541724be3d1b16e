// The notes page's store (./routes/notes.tsx): one per process, as a small app might keep one in
// memory. Tests write with names of their own.
export {};

declare module '../../../../shared/host.ts' {
  interface SessionFlashData {
    /** Who just added a note: thanked once, on the page after the post. */
    noted: string;
  }
  interface SessionData {
    /** Who is signed in to the members' page (./routes/members-guard.tsx). */
    member: string;
  }
}

export interface Note {
  id: number;
  name: string;
  message: string;
}

const notes: Note[] = [];
let nextId = 1;

export const listNotes = (): Note[] => [...notes].reverse();
export const findNote = (id: number): Note | undefined => notes.find((note) => note.id === id);

export function addNote(name: string, message: string): void {
  notes.push({ id: nextId++, name, message });
}

export function deleteNote(id: number): void {
  const at = notes.findIndex((note) => note.id === id);
  if (at >= 0) notes.splice(at, 1);
}
