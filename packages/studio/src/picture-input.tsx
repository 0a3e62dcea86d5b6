import type { AssetType, Capabilities, GenerateRequest, Upload } from '@assetloom/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useCapabilities, useStudio } from './context.js';
import { errorText } from './messages.js';
import './picture-input.css';

/** The image params the picture controls add to a generation (issue #31, decision 0034). */
export type PictureParams = Pick<
  NonNullable<GenerateRequest['params']>,
  'image' | 'mask' | 'paletteFrom' | 'frames'
>;

type Mode = 'pixelate' | 'redraw' | 'animate';

/** The words of these controls, in the studio's two languages. */
const WORDS = {
  en: {
    picture: 'Start from a picture',
    drop: 'Drop a picture here, or choose one (PNG, JPEG, WebP, GIF)',
    uploading: 'Uploading…',
    remove: 'Remove',
    mode: 'What to do with it',
    pixelate: 'Pixelate it (any provider)',
    redraw: 'Redraw it (model provider)',
    animate: 'Animate this sprite',
    strength: 'Strength',
    strengthHint: '0 keeps the picture, 1 ignores it',
    animateHint:
      'Set the asset type to animation and name the motion in the description: idle, breathe, squash, hurt, death, spin, glow or hover.',
    mask: 'Paint a mask (white is redrawn)',
    clearMask: 'Clear the mask',
    maskSaved: 'Mask in use',
    needsModel: (name: string) =>
      `Redrawing and masks need a model provider such as ComfyUI (this server draws with "${name}") — see the README, "Run with a real image model".`,
    paletteFrom: 'Palette from a picture',
    paletteDrop: 'Drop a picture whose colours to use',
    maxColors: 'Colours from the picture',
  },
  zh: {
    picture: '从图片开始',
    drop: '把图片拖到这里，或选择一张（PNG、JPEG、WebP、GIF）',
    uploading: '上传中…',
    remove: '移除',
    mode: '如何使用',
    pixelate: '像素化（任何生成器）',
    redraw: '重绘（模型生成器）',
    animate: '让这个精灵动起来',
    strength: '强度',
    strengthHint: '0 保留原图，1 忽略原图',
    animateHint:
      '把资源类型设为 animation，并在描述里写动作：idle、breathe、squash、hurt、death、spin、glow 或 hover。',
    mask: '绘制蒙版（白色部分重绘）',
    clearMask: '清除蒙版',
    maskSaved: '已使用蒙版',
    needsModel: (name: string) =>
      `重绘和蒙版需要模型生成器，例如 ComfyUI（本服务器使用 “${name}”）——见 README 的 “Run with a real image model”。`,
    paletteFrom: '从图片取调色板',
    paletteDrop: '拖入一张图片，使用它的颜色',
    maxColors: '取用的颜色数',
  },
} as const;

interface Picked {
  upload: Upload;
  /** An object URL of the file, for the preview and the mask painter. */
  url: string;
}

/** A drop zone and file chooser that uploads the picture it is given. */
function DropZone({
  label,
  onUploaded,
  testId,
}: {
  label: string;
  onUploaded: (p: Picked) => void;
  testId: string;
}) {
  const { api, onApiError, lang } = useStudio();
  const words = WORDS[lang === 'zh' ? 'zh' : 'en'];
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState('');
  async function take(file: File | undefined) {
    if (!file) return;
    setError('');
    setBusy(0);
    const result = await api.uploadImage(file, { onProgress: (p) => setBusy(p.loaded / p.total) });
    setBusy(null);
    if (result.error) {
      onApiError(result.error);
      setError(errorText(result.error, lang));
      return;
    }
    onUploaded({ upload: result.data, url: URL.createObjectURL(file) });
  }
  return (
    // the drop target wraps a labelled file input, which is what keyboards and screen readers use
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a pointer-only shortcut
    <div
      class="drop-zone"
      data-testid={testId}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        void take(e.dataTransfer?.files[0]);
      }}
    >
      <label>
        {label}
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          onChange={(e) => void take((e.currentTarget as HTMLInputElement).files?.[0])}
        />
      </label>
      {busy !== null && (
        <progress value={busy} max={1} aria-label={words.uploading}>
          {words.uploading}
        </progress>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Paints a mask over the picture: white where the model redraws, black elsewhere, at the picture's
 * own size (the API wants a mask as large as its image), uploaded when the painting stops.
 */
function MaskPainter({ picture, onMask }: { picture: Picked; onMask: (uploadId: string | null) => void }) {
  const { api, onApiError, lang } = useStudio();
  const words = WORDS[lang === 'zh' ? 'zh' : 'en'];
  const canvas = useRef<HTMLCanvasElement>(null);
  // refs, not state: the pointer handlers of one render read what the previous ones painted
  const painted = useRef(false);
  const drawing = useRef(false);
  const { width, height } = picture.upload;
  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, width, height);
  }, [picture.url]);
  const brush = Math.max(2, Math.round(Math.max(width, height) / 24));
  function paint(e: PointerEvent) {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx || !drawing.current) return;
    const box = c.getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * width;
    const y = ((e.clientY - box.top) / box.height) * height;
    ctx.fillStyle = '#fff';
    ctx.beginPath();
    ctx.arc(x, y, brush, 0, Math.PI * 2);
    ctx.fill();
    painted.current = true;
  }
  async function save() {
    drawing.current = false;
    const c = canvas.current;
    if (!c || !painted.current) return;
    const blob = await new Promise<Blob | null>((r) => c.toBlob(r, 'image/png'));
    if (!blob) return;
    const result = await api.uploadImage(blob);
    if (result.error) {
      onApiError(result.error);
      return;
    }
    onMask(result.data.uploadId);
  }
  return (
    <div class="mask-painter">
      <p>{words.mask}</p>
      <div class="mask-stack" style={{ aspectRatio: `${width} / ${height}` }}>
        <img src={picture.url} alt="" />
        <canvas
          ref={canvas}
          width={width}
          height={height}
          data-testid="mask-canvas"
          onPointerDown={(e) => {
            drawing.current = true;
            paint(e);
          }}
          onPointerMove={paint}
          onPointerUp={() => void save()}
          onPointerLeave={() => void (drawing.current && save())}
        />
      </div>
      <button
        type="button"
        onClick={() => {
          const ctx = canvas.current?.getContext('2d');
          if (ctx) {
            ctx.fillStyle = '#000';
            ctx.fillRect(0, 0, width, height);
          }
          painted.current = false;
          onMask(null);
        }}
      >
        {words.clearMask}
      </button>
    </div>
  );
}

/**
 * "Start from a picture": drop a picture to pixelate it (strength 0, every provider), redraw it with a
 * strength and a painted mask (a model provider), or animate it as a sprite; and "palette from a
 * picture". Tells the form the params to add (`params.image`, `params.mask`, `params.paletteFrom`).
 */
export function PictureInput({
  assetType,
  onChange,
}: {
  assetType: AssetType;
  onChange: (params: PictureParams) => void;
}) {
  const { lang } = useStudio();
  const words = WORDS[lang === 'zh' ? 'zh' : 'en'];
  const [picture, setPicture] = useState<Picked | null>(null);
  const [mode, setMode] = useState<Mode>('pixelate');
  const [strength, setStrength] = useState(0.5);
  const [mask, setMask] = useState<string | null>(null);
  const [palette, setPalette] = useState<Picked | null>(null);
  const [maxColors, setMaxColors] = useState(16);
  // What the server's provider honours (GET /api/v1/capabilities); null until known: all offered.
  const capabilities: Capabilities | null = useCapabilities();
  const canRedraw = capabilities === null || capabilities.inputs.image;
  useEffect(() => {
    if (!canRedraw && mode === 'redraw') setMode('pixelate');
  }, [canRedraw, mode]);

  useEffect(() => {
    const params: PictureParams = {};
    if (picture) {
      params.image = { uploadId: picture.upload.uploadId, strength: mode === 'redraw' ? strength : 0 };
      if (mode === 'redraw' && mask) params.mask = { uploadId: mask };
      // a picture is one view: one frame to pixelate or redraw, one direction of frames to animate
      if (assetType === 'sprite' || assetType === 'animation') {
        params.frames = {
          directions: 1,
          framesPerDirection: mode === 'animate' && assetType === 'animation' ? 4 : 1,
        };
      }
    }
    if (palette) params.paletteFrom = { uploadId: palette.upload.uploadId, maxColors };
    onChange(params);
  }, [picture, mode, strength, mask, palette, maxColors, assetType]);

  return (
    <fieldset class="picture-input stack" data-testid="picture-input">
      <legend>{words.picture}</legend>
      {picture ? (
        <div class="picture-chosen">
          <img class="picture-preview" src={picture.url} alt="" />
          <span>
            {picture.upload.width} × {picture.upload.height} {picture.upload.format}
            {picture.upload.animated ? ' (1st frame)' : ''}
          </span>
          <button
            type="button"
            onClick={() => {
              setPicture(null);
              setMask(null);
            }}
          >
            {words.remove}
          </button>
        </div>
      ) : (
        <DropZone label={words.drop} testId="picture-drop" onUploaded={setPicture} />
      )}
      {picture && (
        <label>
          {words.mode}
          <select
            value={mode}
            onChange={(e) => setMode((e.currentTarget as HTMLSelectElement).value as Mode)}
          >
            <option value="pixelate">{words.pixelate}</option>
            <option value="redraw" disabled={!canRedraw}>
              {words.redraw}
            </option>
            <option value="animate">{words.animate}</option>
          </select>
        </label>
      )}
      {picture && !canRedraw && capabilities && (
        <p class="note" data-testid="needs-model">
          {words.needsModel(capabilities.provider.name)}
        </p>
      )}
      {picture && mode === 'redraw' && (
        <label>
          {words.strength} {strength.toFixed(2)}
          <input
            type="range"
            min={0.05}
            max={1}
            step={0.05}
            value={strength}
            aria-describedby="strength-hint"
            onInput={(e) => setStrength(Number((e.currentTarget as HTMLInputElement).value))}
          />
          <small id="strength-hint">{words.strengthHint}</small>
        </label>
      )}
      {picture && mode === 'redraw' && (capabilities?.inputs.mask ?? true) && (
        <MaskPainter picture={picture} onMask={(id) => setMask(id)} />
      )}
      {picture && mode === 'redraw' && mask && <p data-testid="mask-in-use">{words.maskSaved}</p>}
      {picture && mode === 'animate' && assetType !== 'animation' && <p class="note">{words.animateHint}</p>}
      <div class="palette-from">
        <p>{words.paletteFrom}</p>
        {palette ? (
          <div class="picture-chosen">
            <img class="picture-preview" src={palette.url} alt="" />
            <label>
              {words.maxColors}
              <select
                value={maxColors}
                onChange={(e) => setMaxColors(Number((e.currentTarget as HTMLSelectElement).value))}
              >
                {[4, 8, 16, 32, 64].map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" onClick={() => setPalette(null)}>
              {words.remove}
            </button>
          </div>
        ) : (
          <DropZone label={words.paletteDrop} testId="palette-drop" onUploaded={setPalette} />
        )}
      </div>
    </fieldset>
  );
}
