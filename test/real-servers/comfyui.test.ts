// The suites that drive the run's one real ComfyUI (started in the background by the project's global
// setup; each suite awaits it at its top). They share ComfyUI's one queue, so they run here, one after
// another in one file: a file of its own each would have to keep the whole project one file at a time,
// after the rest of the run (decision 0139). llm.test.ts starts its own llama.cpp server and is a file
// of its own.
import './comfyui-provider.suite.js';
import './comfyui-images.suite.js';
import './server-comfyui.suite.js';
