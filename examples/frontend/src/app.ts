import { type AssetClient, createAssetClient, type PipelineProgress, type Task } from '@assetloom/sdk';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** Wires the page to an Assetloom API (the msw mock in dev and tests, or a real server). */
export function startApp(baseUrl: string): AssetClient {
  const api = createAssetClient({ baseUrl });
  const loginForm = $<HTMLFormElement>('login-form');
  const generateForm = $<HTMLFormElement>('generate-form');
  let objectUrl: string | undefined;

  async function showProjects() {
    const list = $<HTMLUListElement>('projects');
    const select = $<HTMLSelectElement>('project-select');
    const chosen = select.value;
    list.replaceChildren();
    select.replaceChildren();
    for await (const project of api.paginate('/api/v1/projects')) {
      const item = document.createElement('li');
      item.textContent = `${project.name} — ${project.taskCount} task(s)`;
      list.append(item);
      select.append(new Option(project.name, project.id));
    }
    if (chosen !== '' && [...select.options].some((o) => o.value === chosen)) select.value = chosen;
    if (select.options.length === 0) list.textContent = 'No projects yet.';
  }

  loginForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(loginForm);
    $('login-error').textContent = '';
    const result = await api.login({
      username: String(data.get('username')),
      password: String(data.get('password')),
    });
    if (result.error) {
      $('login-error').textContent = result.error.message;
      return;
    }
    $('login-view').hidden = true;
    $('studio-view').hidden = false;
    $('who').textContent = String(data.get('username'));
    try {
      await showProjects();
    } catch (error) {
      $('task-error').textContent = (error as Error).message;
    }
  });

  generateForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(generateForm);
    const button = generateForm.querySelector('button') as HTMLButtonElement;
    button.disabled = true;
    $('task').hidden = false;
    $('result').hidden = true;
    $('task-error').textContent = '';
    $('task-events').replaceChildren();
    const progress = $<HTMLProgressElement>('task-progress');
    progress.value = 0;
    try {
      const submitted = await api.generate({
        projectId: String(data.get('projectId')),
        prompt: String(data.get('prompt')),
        assetType: String(data.get('assetType')) as 'sprite',
      });
      if (submitted.error) throw submitted.error;
      const taskId = submitted.data.taskId;
      $('task-status').textContent = `Task ${taskId} submitted`;
      const done = await api.waitForTask(taskId, {
        onProgress: (task: Task) => {
          progress.value = task.progress;
          $('task-status').textContent = `${task.status} · ${task.stage} · ${task.progress}%`;
        },
        onEvent: (e: PipelineProgress) => {
          const item = document.createElement('li');
          item.textContent = `${e.stage} ${e.status}`;
          $('task-events').append(item);
        },
      });
      if (done.error) throw done.error;
      const assets = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
      if (assets.error) throw assets.error;
      const png = assets.data.assets.find((a) => a.format === 'png');
      if (png === undefined) throw new Error('the task produced no PNG');
      const file = await api.downloadAsset(png);
      if (file.error) throw file.error;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      objectUrl = URL.createObjectURL(
        new Blob([file.data.bytes as BlobPart], { type: file.data.contentType }),
      );
      const img = $<HTMLImageElement>('result-img');
      img.src = objectUrl;
      await img.decode();
      $('result-caption').textContent = `${png.key.split('/').pop()} · ${png.width}×${png.height}`;
      $('result').hidden = false;
      await showProjects();
    } catch (error) {
      $('task-error').textContent = (error as Error).message;
    } finally {
      button.disabled = false;
    }
  });
  return api;
}
