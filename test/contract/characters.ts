import { decodePng, encodePng, type RgbaImage } from '@assetloom/pipeline';
import type { AssetClient } from '@assetloom/sdk';
import { describe, expect, it } from 'vitest';
import type { ContractTarget } from './targets.js';

const PASSWORD = 'contract-pass-1';
let counter = 0;
const uniqueName = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${++counter}${Math.random().toString(36).slice(2, 6)}`;

/** The distinct opaque colours of a picture, as sorted `#rrggbb`. */
function paletteOf(image: RgbaImage): string[] {
  const seen = new Set<string>();
  for (let i = 0; i < image.data.length; i += 4) {
    if ((image.data[i + 3] as number) === 0) continue;
    seen.add(
      `#${[0, 1, 2].map((c) => (image.data[i + c] as number).toString(16).padStart(2, '0')).join('')}`,
    );
  }
  return [...seen].sort();
}

/** One cell (`size` square) of a sheet, as RGBA bytes. */
function cell(image: RgbaImage, column: number, row: number, size: number): Uint8Array {
  const out = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    const from = ((row * size + y) * image.width + column * size) * 4;
    out.set(image.data.subarray(from, from + size * 4), y * size * 4);
  }
  return out;
}

/**
 * Characters (issue #40) against one target: kept identity, ownership, validation in the
 * envelope, animate and rotate as tasks drawn with the stored identity.
 */
export function defineCharacterSuite(target: ContractTarget, runtime: boolean): void {
  const base = target.baseUrl;

  async function signedUp(): Promise<{ api: AssetClient; token: string }> {
    const api = target.client();
    const username = uniqueName('chr');
    const reg = await api.POST('/auth/register', { body: { username, password: PASSWORD } });
    if (reg.error) throw reg.error;
    const login = await api.login({ username, password: PASSWORD });
    if (login.error) throw login.error;
    return { api, token: login.data.token };
  }

  async function projectOf(api: AssetClient, style?: Record<string, string>): Promise<string> {
    const created = await api.POST('/api/v1/projects', {
      body: { name: 'Heroes', ...(style ? { style } : {}) },
    });
    if (created.error) throw created.error;
    return created.data.id;
  }

  async function sheetOf(api: AssetClient, taskId: string): Promise<RgbaImage> {
    const done = await api.waitForTask(taskId, { transport: 'poll', pollIntervalMs: 20, timeoutMs: 60_000 });
    if (done.error) throw done.error;
    expect(done.data.status, String(done.data.error)).toBe('completed');
    const assets = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (assets.error) throw assets.error;
    const png = assets.data.assets.find((a) => a.format === 'png' && !a.key.includes('/frames/'));
    if (png === undefined) throw new Error(`task ${taskId} has no PNG`);
    const file = await api.downloadAsset(png);
    if (file.error) throw file.error;
    const decoded = decodePng(file.data.bytes);
    if (!decoded.ok) throw new Error(decoded.error);
    return decoded.image;
  }

  describe(`characters on the ${target.name}`, () => {
    it('creates, lists, reads, renames and deletes a character, 404 and 403 as other resources', async () => {
      const { api } = await signedUp();
      const projectId = await projectOf(api, { palette: 'sweetie16', mood: 'brave' });
      const created = await api.POST('/api/v1/projects/{projectId}/characters', {
        params: { path: { projectId } },
        body: { name: 'Ada', prompt: 'a knight in blue armour', size: 32, seed: 7, style: { mood: 'calm' } },
      });
      if (created.error) throw created.error;
      const character = created.data;
      expect(character).toMatchObject({
        projectId,
        name: 'Ada',
        source: 'prompt',
        uploadId: null,
        identity: {
          provider: 'procedural',
          prompt: 'a knight in blue armour',
          seed: 7,
          size: 32,
          palette: 'sweetie16',
          style: { palette: 'sweetie16', mood: 'calm' },
          references: [],
        },
      });
      // its base view is a task of the project like any other
      const tasks = await api.GET('/api/v1/projects/{projectId}/tasks', { params: { path: { projectId } } });
      expect(tasks.data?.tasks.map((t) => t.id)).toEqual([character.baseTaskId]);

      const second = await api.POST('/api/v1/projects/{projectId}/characters', {
        params: { path: { projectId } },
        body: { name: 'Bo', prompt: 'a green goblin' },
      });
      if (second.error) throw second.error;
      expect(second.data.identity.size).toBe(64);
      expect(second.data.identity.seed).toBeGreaterThanOrEqual(0);
      const page = await api.GET('/api/v1/projects/{projectId}/characters', {
        params: { path: { projectId }, query: { page: 1, pageSize: 1 } },
      });
      expect(page.data).toMatchObject({ total: 2, characters: [{ id: second.data.id }] });

      const id = character.id;
      const renamed = await api.PUT('/api/v1/characters/{characterId}', {
        params: { path: { characterId: id } },
        body: { name: 'Ada the Bold' },
      });
      expect(renamed.data).toMatchObject({ name: 'Ada the Bold', identity: character.identity });
      const read = await api.GET('/api/v1/characters/{characterId}', {
        params: { path: { characterId: id } },
      });
      expect(read.data?.name).toBe('Ada the Bold');

      const { api: other } = await signedUp();
      for (const call of [
        other.GET('/api/v1/characters/{characterId}', { params: { path: { characterId: id } } }),
        other.POST('/api/v1/characters/{characterId}/animate', {
          params: { path: { characterId: id } },
          body: { action: 'walk' },
        }),
        other.DELETE('/api/v1/characters/{characterId}', { params: { path: { characterId: id } } }),
      ]) {
        const res = await call;
        expect(res.response?.status).toBe(403);
        expect(res.error).toMatchObject({
          code: 403,
          message: '无权访问该角色',
          data: { reason: 'character_forbidden' },
        });
      }
      const foreignList = await other.GET('/api/v1/projects/{projectId}/characters', {
        params: { path: { projectId } },
      });
      expect(foreignList.response?.status).toBe(403);
      for (const characterId of ['nope', 'bad id!']) {
        const res = await api.GET('/api/v1/characters/{characterId}', { params: { path: { characterId } } });
        expect(res.response?.status).toBe(404);
        expect(res.error).toMatchObject({ message: '角色不存在', data: { reason: 'character_not_found' } });
      }
      const anonymous = await fetch(`${base}/api/v1/characters/${id}`);
      expect(anonymous.status).toBe(401);

      const deleted = await api.DELETE('/api/v1/characters/{characterId}', {
        params: { path: { characterId: id } },
      });
      expect(deleted.data).toBeNull();
      const gone = await api.GET('/api/v1/characters/{characterId}', {
        params: { path: { characterId: id } },
      });
      expect(gone.response?.status).toBe(404);

      // a project's delete removes its characters
      const kept = second.data.id;
      await api.DELETE('/api/v1/projects/{projectId}', { params: { path: { projectId } } });
      const afterProject = await api.GET('/api/v1/characters/{characterId}', {
        params: { path: { characterId: kept } },
      });
      expect(afterProject.response?.status).toBe(404);
    });

    it("names its character in its tasks and lists a character's tasks, paged, its owner's only (decision 0057)", async () => {
      const { api, token } = await signedUp();
      const projectId = await projectOf(api);
      const made = async (name: string) => {
        const created = await api.characters.create(projectId, {
          name,
          prompt: 'a knight',
          size: 32,
          seed: 3,
        });
        if (created.error) throw created.error;
        return created.data;
      };
      // two characters of the same prompt, and a generated sprite of it: only tasks made through a
      // character are its, whatever their prompt
      const knight = await made('Kay');
      const twin = await made('Gawain');
      const walk = await api.characters.animate(knight.id, {
        action: 'walk',
        directions: 4,
        framesPerDirection: 4,
      });
      if (walk.error) throw walk.error;
      const turn = await api.characters.rotate(knight.id, { directions: 4 });
      if (turn.error) throw turn.error;
      const plain = await api.POST('/api/v1/generate', {
        body: { projectId, prompt: 'a knight', assetType: 'sprite', params: { resolution: 32 } },
      });
      if (plain.error) throw plain.error;

      const list = await api.characters.tasks(knight.id);
      if (list.error) throw list.error;
      expect(list.data.total).toBe(3);
      expect(list.data.tasks.map((t) => t.id)).toEqual([
        turn.data.taskId,
        walk.data.taskId,
        knight.baseTaskId,
      ]);
      expect(list.data.tasks.every((t) => t.characterId === knight.id)).toBe(true);
      const second = await api.characters.tasks(knight.id, { page: 2, pageSize: 1 });
      expect(second.data).toMatchObject({ total: 3, tasks: [{ id: walk.data.taskId }] });
      const theTwin = await api.characters.tasks(twin.id);
      expect(theTwin.data?.tasks.map((t) => t.id)).toEqual([twin.baseTaskId]);
      // GET task and the project's list name the character, null for a task of none
      const task = await api.GET('/api/v1/tasks/{taskId}', {
        params: { path: { taskId: walk.data.taskId } },
      });
      expect(task.data?.characterId).toBe(knight.id);
      const other = await api.GET('/api/v1/tasks/{taskId}', {
        params: { path: { taskId: plain.data.taskId } },
      });
      expect(other.data?.characterId).toBeNull();
      const all = await api.GET('/api/v1/projects/{projectId}/tasks', { params: { path: { projectId } } });
      expect(Object.fromEntries((all.data?.tasks ?? []).map((t) => [t.id, t.characterId]))).toEqual({
        [knight.baseTaskId]: knight.id,
        [twin.baseTaskId]: twin.id,
        [walk.data.taskId]: knight.id,
        [turn.data.taskId]: knight.id,
        [plain.data.taskId]: null,
      });

      // another user's character: 403; an unknown or malformed id: 404; a bad page: 400, each in the envelope
      const { api: stranger } = await signedUp();
      const foreign = await stranger.characters.tasks(knight.id);
      expect(foreign.response?.status).toBe(403);
      expect(foreign.error).toMatchObject({ code: 403, data: { reason: 'character_forbidden' } });
      for (const characterId of ['nope', 'bad id!']) {
        const res = await api.characters.tasks(characterId);
        expect(res.response?.status).toBe(404);
        expect(res.error).toMatchObject({ message: '角色不存在', data: { reason: 'character_not_found' } });
      }
      const badPage = await fetch(`${base}/api/v1/characters/${knight.id}/tasks?page=0`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(badPage.status).toBe(400);
      expect(await badPage.json()).toMatchObject({
        code: 400,
        data: { errors: [{ in: 'query', path: '/page' }] },
      });

      // a deleted character's tasks stay with the project and keep its id; its list is gone (404)
      await api.characters.delete(knight.id);
      const kept = await api.GET('/api/v1/tasks/{taskId}', {
        params: { path: { taskId: walk.data.taskId } },
      });
      expect(kept.data?.characterId).toBe(knight.id);
      const gone = await api.characters.tasks(knight.id);
      expect(gone.response?.status).toBe(404);
      const after = await api.GET('/api/v1/projects/{projectId}/tasks', { params: { path: { projectId } } });
      expect(after.data?.total).toBe(5);
    });

    it('refuses bad input in the envelope, naming the field in Chinese or English', async () => {
      const { token, api } = await signedUp();
      const projectId = await projectOf(api);
      const post = (body: unknown, language?: string) =>
        fetch(`${base}/api/v1/projects/${projectId}/characters`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            ...(language ? { 'accept-language': language } : {}),
          },
          body: JSON.stringify(body),
        });
      const size = await post({ name: 'x', prompt: 'a cat', size: 48 });
      expect(size.status).toBe(400);
      expect(await size.json()).toMatchObject({
        code: 400,
        message: '参数错误',
        data: { reason: 'invalid_request', errors: [{ in: 'body', path: '/size', rule: 'enum' }] },
      });
      const neither = await post({ name: 'x' }, 'en');
      expect(await neither.json()).toMatchObject({
        code: 400,
        message: 'Invalid parameters',
        data: { errors: [{ path: '/prompt', rule: 'required', message: 'is required' }] },
      });
      const style = await post({ name: 'x', prompt: 'a cat', style: { palette: 'no-such-palette' } });
      expect((await style.json()).data.errors[0]).toMatchObject({
        path: '/style/palette',
        rule: 'styleValue',
      });
      const created = await api.POST('/api/v1/projects/{projectId}/characters', {
        params: { path: { projectId } },
        body: { name: 'Kit', prompt: 'a knight', size: 32 },
      });
      if (created.error) throw created.error;
      const dance = await api.POST('/api/v1/characters/{characterId}/animate', {
        params: { path: { characterId: created.data.id } },
        body: { action: 'dance' },
      });
      expect(dance.response?.status).toBe(400);
      expect(dance.error?.data).toMatchObject({
        errors: [
          {
            path: '/action',
            rule: 'enum',
            allowed: ['idle', 'walk', 'run', 'jump', 'attack', 'cast', 'hurt', 'death'],
          },
        ],
      });
      const directions = await api.POST('/api/v1/characters/{characterId}/rotate', {
        params: { path: { characterId: created.data.id } },
        body: { directions: 2 as 4 },
      });
      expect(directions.error?.data).toMatchObject({ errors: [{ path: '/directions', rule: 'enum' }] });
    });

    it.runIf(runtime)(
      'animates and turns a character as tasks with its stored identity: two tasks of one action draw the same palette and pixels',
      async () => {
        const { api } = await signedUp();
        const projectId = await projectOf(api);
        // through the SDK's typed methods
        const created = await api.characters.create(projectId, {
          name: 'Knight',
          prompt: 'a knight',
          size: 32,
          seed: 11,
        });
        if (created.error) throw created.error;
        const characterId = created.data.id;
        const baseView = await sheetOf(api, created.data.baseTaskId);
        expect([baseView.width, baseView.height]).toEqual([32, 32]);

        const animate = async (action: 'walk', framesPerDirection: number) => {
          const submitted = await api.characters.animate(characterId, {
            action,
            directions: 4,
            framesPerDirection,
          });
          if (submitted.error) throw submitted.error;
          const task = await api.GET('/api/v1/tasks/{taskId}', {
            params: { path: { taskId: submitted.data.taskId } },
          });
          expect(task.data).toMatchObject({
            projectId,
            assetType: 'animation',
            params: { resolution: 32, seed: 11, frames: { directions: 4, framesPerDirection } },
          });
          return { taskId: submitted.data.taskId, image: await sheetOf(api, submitted.data.taskId) };
        };
        const first = await animate('walk', 4);
        // A second task of the same action, submitted after the first completed: a new task drawn
        // from the stored identity alone (same seed, prompt, style, size), so the same drawing.
        const again = await animate('walk', 4);
        expect(again.taskId).not.toBe(first.taskId);
        expect([first.image.width, first.image.height]).toEqual([4 * 32, 4 * 32]);
        expect(paletteOf(again.image)).toEqual(paletteOf(first.image));
        for (let row = 0; row < 4; row++) {
          expect(
            Buffer.from(cell(again.image, 0, row, 32)).equals(Buffer.from(cell(first.image, 0, row, 32))),
          ).toBe(true);
        }
        expect(Buffer.from(again.image.data).equals(Buffer.from(first.image.data))).toBe(true);

        const turned = await api.characters.rotate(characterId, { directions: 8 });
        if (turned.error) throw turned.error;
        const task = await api.GET('/api/v1/tasks/{taskId}', {
          params: { path: { taskId: turned.data.taskId } },
        });
        expect(task.data).toMatchObject({
          assetType: 'sprite',
          prompt: 'a knight',
          params: { resolution: 32, seed: 11, frames: { directions: 8, framesPerDirection: 1 } },
        });
        const views = await sheetOf(api, turned.data.taskId);
        expect([views.width, views.height]).toEqual([32, 8 * 32]);
      },
    );

    it.runIf(runtime)(
      'makes a character from an uploaded sprite: its base view pixelates it; turning it needs a model provider, said by name',
      async () => {
        const { api } = await signedUp();
        const projectId = await projectOf(api);
        // a 32×32 figure: a skin head with eyes over a red body, outlined, on transparency
        const side = 32;
        const data = new Uint8Array(side * side * 4);
        const paint = (x0: number, y0: number, x1: number, y1: number, rgb: number[]) => {
          for (let y = y0; y <= y1; y++)
            for (let x = x0; x <= x1; x++) data.set([...rgb, 255], (y * side + x) * 4);
        };
        paint(9, 3, 22, 29, [20, 12, 28]); // outline
        paint(11, 5, 20, 13, [238, 195, 154]); // head
        paint(13, 8, 14, 9, [20, 12, 28]); // eyes
        paint(17, 8, 18, 9, [20, 12, 28]);
        paint(10, 15, 21, 24, [208, 70, 72]); // body
        paint(11, 25, 14, 28, [48, 52, 109]); // legs
        paint(17, 25, 20, 28, [48, 52, 109]);
        const png = encodePng(data, side, side);
        const upload = await api.uploadImage(png, { contentType: 'image/png' });
        if (upload.error) throw upload.error;
        const uploadId = upload.data.uploadId;

        const { api: other } = await signedUp();
        const otherProject = await projectOf(other);
        const foreign = await other.characters.create(otherProject, { name: 'Thief', uploadId });
        expect(foreign.error).toMatchObject({ code: 403, message: '无权访问该上传' });

        const created = await api.characters.create(projectId, { name: 'Blocky', uploadId, size: 32 });
        if (created.error) throw created.error;
        expect(created.data).toMatchObject({
          source: 'upload',
          uploadId,
          identity: { prompt: 'Blocky', size: 32, references: [uploadId] },
        });
        const baseView = await sheetOf(api, created.data.baseTaskId);
        expect([baseView.width, baseView.height]).toEqual([32, 32]);
        expect(paletteOf(baseView)).toContain('#d04648');

        const turned = await api.characters.rotate(created.data.id, { directions: 8 });
        expect(turned.error?.code).toBe(400);
        expect(turned.error?.data).toMatchObject({ errors: [{ path: '/directions', rule: 'image' }] });
        expect(JSON.stringify(turned.error?.data)).toContain('内置生成器无法把上传的图片转到其他方向');
        // a walk redraws the figure: the built-in generator names the input it cannot honour
        const walk = await api.characters.animate(created.data.id, { action: 'walk', directions: 1 });
        expect(walk.error?.data).toMatchObject({ errors: [{ path: '/params/image', rule: 'image' }] });
        // a model-free motion of the given sprite is a task
        const eight = await api.characters.animate(created.data.id, { action: 'hurt', directions: 8 });
        expect(eight.error?.data).toMatchObject({ errors: [{ path: '/directions', rule: 'image' }] });
        const hurt = await api.characters.animate(created.data.id, {
          action: 'hurt',
          directions: 1,
          framesPerDirection: 4,
        });
        if (hurt.error) throw hurt.error;
        const moved = await sheetOf(api, hurt.data.taskId);
        expect(paletteOf(moved)).toContain('#d04648');
      },
    );
  });
}
