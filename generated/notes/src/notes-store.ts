// The notes themselves: kept in memory for this example (a real server would use a file or a database).
// Not generated: files outside src/handlers that mcpgen does not write are never touched.
export type Note = { id: string; title: string; body: string; tags: string[]; createdAt: string };

const notes = new Map<string, Note>();
let nextId = 1;

export function createNote(title: string, body: string, tags: string[] = []): Note {
  const note = { id: `n${nextId++}`, title, body, tags, createdAt: new Date().toISOString() };
  notes.set(note.id, note);
  return note;
}

export function findNotes(query: string, tag?: string, limit = 20): Note[] {
  const needle = query.toLowerCase();
  return [...notes.values()]
    .filter((note) => `${note.title}\n${note.body}`.toLowerCase().includes(needle))
    .filter((note) => tag === undefined || note.tags.includes(tag))
    .slice(0, limit);
}

export function getNote(id: string): Note | undefined {
  return notes.get(id);
}

export function deleteNote(id: string): boolean {
  return notes.delete(id);
}

export function allNotes(): Note[] {
  return [...notes.values()];
}
