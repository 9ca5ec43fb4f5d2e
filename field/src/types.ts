/**
 * The shapes of what the device keeps (field/src/db.ts keeps them in IndexedDB), apart from the
 * storage so that the pure parts (payload.ts, photo-info.ts, validate.ts) and their tests need no DOM.
 */
export type Kind = 'offences' | 'plantings' | 'planting-inspections' | 'tree-cutting-violations';
export type State = 'draft' | 'queued' | 'sending' | 'sent' | 'error';

export interface FieldRecord {
  /** the client id: the create's Idempotency-Key */
  id: string;
  kind: Kind;
  /** the user who captured it: another user signing in on the device does not send it */
  userId: number;
  data: Record<string, unknown>;
  state: State;
  /** the server's refusal: its message and the fields it names */
  error?: { message: string; fields?: Record<string, string> };
  serverId?: number;
  createdAt: number;
  updatedAt: number;
  sentAt?: number;
  /** how many photos it was sent with (their bytes are dropped from the device once sent) */
  photoCount?: number;
  attempts: number;
  /** not retried before (ms since 1970) */
  nextAt?: number;
}

export interface Photo {
  id: string;
  recordId: string;
  /** when it was added to the record (ms): the photos' order, in the form and in the create */
  addedAt?: number;
  name: string;
  blob: Blob;
  /** the offence file's type (offence-files-type id), chosen per photo */
  typeId?: number;
  /** when it was taken: the EXIF time as the camera wrote it (`exif`), else the file's own date */
  takenAt?: string;
  /** where the takenAt came from */
  timeFrom?: 'exif' | 'file';
  /** the EXIF GPS position, read on the device before resizing (which drops the EXIF) */
  gps?: { lat: number; lng: number };
  /** the tus upload's URL once created, and the file's id once finished */
  uploadUrl?: string;
  resourceId?: number;
  error?: string;
}
