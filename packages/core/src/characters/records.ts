import type { Page, PageWindow } from '../store.js';
import {
  pairsToStyle,
  requireDate,
  requireInt,
  requireString,
  type StylePair,
  styleToPairs,
} from '../store.js';
import type { StyleMap } from '../types.js';

/** The sizes a character is drawn at (the contract's CharacterSize). */
export type CharacterSize = 32 | 64 | 128;

/**
 * What makes a character itself in every task (issue #40): the built-in generator is
 * deterministic in prompt, seed, style and size (its body, parts and palette follow from them);
 * a model provider is sent the reference pictures with the same seed and prompt.
 */
export interface CharacterIdentityRecord {
  /** The image provider the character was made with (its `name`). */
  provider: string;
  prompt: string;
  seed: number;
  /** The project's style overridden by the character's, frozen at creation. */
  style: StyleMap;
  size: CharacterSize;
  /** The style's palette key (null: the generator's own for the subject). */
  palette: string | null;
  /** Upload ids of the reference pictures (a model provider's identity). */
  references: string[];
  /**
   * The built-in generator's rig identity (its `characterIdentity`: body, proportions, pieces and
   * palette as plain JSON), made once from a prompt; null for an upload's character, a model
   * provider's, or one stored before rigs were kept (decision 0055).
   */
  rig: Record<string, unknown> | null;
}

export interface CharacterRecord {
  id: string;
  ownerId: number;
  projectId: string;
  name: string;
  source: 'prompt' | 'upload';
  uploadId: string | null;
  identity: CharacterIdentityRecord;
  /** The task drawing the base view. */
  baseTaskId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The stored document (`characters` collection): the style as pairs, like a project's. */
export interface CharacterDoc {
  _id: string;
  ownerId: number;
  projectId: string;
  name: string;
  source: 'prompt' | 'upload';
  uploadId: string | null;
  /** `rig` is absent in documents stored before rigs were kept. */
  identity: Omit<CharacterIdentityRecord, 'style' | 'rig'> & {
    style: StylePair[];
    rig?: Record<string, unknown> | null;
  };
  baseTaskId: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface CharacterRepository {
  insert(character: CharacterRecord): Promise<void>;
  byId(id: string): Promise<CharacterRecord | null>;
  /** Newest first (createdAt desc, id desc). */
  listByProject(projectId: string, window: PageWindow): Promise<Page<CharacterRecord>>;
  rename(id: string, name: string, at: Date): Promise<CharacterRecord | null>;
  delete(id: string): Promise<boolean>;
  /** Every character of a project (a project's deletion); how many went. */
  deleteByProject(projectId: string): Promise<number>;
}

export function characterToDoc(c: CharacterRecord): CharacterDoc {
  return {
    _id: requireString(c.id, 'character id'),
    ownerId: requireInt(c.ownerId, 'owner id'),
    projectId: requireString(c.projectId, 'project id'),
    name: requireString(c.name, 'name'),
    source: c.source,
    uploadId: c.uploadId,
    identity: {
      provider: c.identity.provider,
      prompt: c.identity.prompt,
      seed: requireInt(c.identity.seed, 'seed'),
      style: styleToPairs(c.identity.style),
      size: c.identity.size,
      palette: c.identity.palette,
      references: [...c.identity.references],
      rig: c.identity.rig === null ? null : structuredClone(c.identity.rig),
    },
    baseTaskId: requireString(c.baseTaskId, 'task id'),
    createdAt: requireDate(c.createdAt, 'createdAt'),
    updatedAt: requireDate(c.updatedAt, 'updatedAt'),
  };
}

export function docToCharacter(d: CharacterDoc): CharacterRecord {
  return {
    id: String(d._id),
    ownerId: Number(d.ownerId),
    projectId: String(d.projectId),
    name: String(d.name),
    source: d.source === 'upload' ? 'upload' : 'prompt',
    uploadId: typeof d.uploadId === 'string' ? d.uploadId : null,
    identity: {
      provider: String(d.identity.provider),
      prompt: String(d.identity.prompt),
      seed: Number(d.identity.seed),
      style: pairsToStyle(d.identity.style),
      size: Number(d.identity.size) as CharacterSize,
      palette: typeof d.identity.palette === 'string' ? d.identity.palette : null,
      references: Array.isArray(d.identity.references) ? d.identity.references.map(String) : [],
      rig:
        d.identity.rig !== null && typeof d.identity.rig === 'object' && !Array.isArray(d.identity.rig)
          ? d.identity.rig
          : null,
    },
    baseTaskId: String(d.baseTaskId),
    createdAt: new Date(d.createdAt),
    updatedAt: new Date(d.updatedAt),
  };
}
