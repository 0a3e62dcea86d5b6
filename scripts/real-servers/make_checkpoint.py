"""Builds a random-weight, SD1.5-shaped checkpoint that ComfyUI loads as SD1.5.

No weights can be downloaded on these machines, so the test checkpoint is made here: ComfyUI's own
UNet (SD1.5's, with fewer blocks: see SD15_UNET) and VAE (AutoencoderKL, the SD VAE shape)
classes plus a transformers CLIP-L text encoder (ComfyUI's comfy/sd1_clip_config.json), all with
PyTorch's default random initialisation under a fixed seed, saved in fp16 as one safetensors file
with the key prefixes of an original SD1.5 checkpoint. It draws coloured noise, which is all the
wire tests need. Run from ComfyUI's folder with ComfyUI's venv:

    python make_checkpoint.py <out.safetensors>
"""

import json
import os
import sys

OUT = sys.argv[1]
sys.path.insert(0, os.getcwd())
# comfy.model_management reads ComfyUI's command line when imported (only when parsing is enabled,
# as main.py does): no GPU here
sys.argv = [sys.argv[0], "--cpu"]
import comfy.options  # noqa: E402

comfy.options.enable_args_parsing()

import torch  # noqa: E402
from safetensors.torch import save_file  # noqa: E402

import comfy.ops  # noqa: E402
from comfy.ldm.models.autoencoder import AutoencoderKL  # noqa: E402
from comfy.ldm.modules.diffusionmodules.openaimodel import UNetModel  # noqa: E402

# SD1.5's UNet with fewer blocks: what ComfyUI reads to pick SD1.5 (supported_models.SD15: context_dim
# 768, model_channels 320, no linear transformer in/out, no ADM, no temporal attention) is kept; one
# res block per level and every level at 320 channels cut the UNet to a tenth of its size and CPU time.
# The text encoder (CLIP-L) and the VAE keep their real shapes: ComfyUI builds them from fixed configs.
SD15_UNET = {
    "use_checkpoint": False, "image_size": 32, "out_channels": 4, "use_spatial_transformer": True,
    "legacy": False, "adm_in_channels": None, "in_channels": 4, "model_channels": 320,
    "num_res_blocks": [1, 1, 1, 1], "transformer_depth": [1, 1, 1, 0],
    "channel_mult": [1, 1, 1, 1], "transformer_depth_middle": 1, "use_linear_in_transformer": False,
    "context_dim": 768, "num_heads": 8, "num_head_channels": -1,
    "transformer_depth_output": [1, 1, 1, 1, 1, 1, 0, 0],
    "use_temporal_attention": False, "use_temporal_resblock": False,
}
SD_VAE = {
    "double_z": True, "z_channels": 4, "resolution": 256, "in_channels": 3, "out_ch": 3, "ch": 128,
    "ch_mult": [1, 2, 4, 4], "num_res_blocks": 2, "attn_resolutions": [], "dropout": 0.0,
}
RESETTABLE = (torch.nn.Linear, torch.nn.Conv2d, torch.nn.Conv1d, torch.nn.GroupNorm, torch.nn.LayerNorm)


def init(module):
    """ComfyUI's layers skip initialisation (weights come from files); give them PyTorch's default."""
    for m in module.modules():
        if isinstance(m, RESETTABLE):
            type(m).__mro__[[c.__module__.startswith("torch.nn") for c in type(m).__mro__].index(True)].reset_parameters(m)
    return module


def main(out):
    torch.manual_seed(0)
    sd = {}
    unet = init(UNetModel(**SD15_UNET, dtype=torch.float32, operations=comfy.ops.disable_weight_init))
    sd.update({f"model.diffusion_model.{k}": v for k, v in unet.state_dict().items()})
    del unet
    vae = init(AutoencoderKL(ddconfig=SD_VAE, embed_dim=4))
    sd.update({f"first_stage_model.{k}": v for k, v in vae.state_dict().items()})
    del vae
    from transformers import CLIPTextConfig, CLIPTextModel

    with open(os.path.join("comfy", "sd1_clip_config.json")) as f:
        config = CLIPTextConfig(**{k: v for k, v in json.load(f).items() if k not in ("architectures",)})
    clip = CLIPTextModel(config)
    sd.update({f"cond_stage_model.transformer.{k}": v for k, v in clip.state_dict().items()})
    del clip
    tensors = {k: (v.half() if v.is_floating_point() else v).contiguous() for k, v in sd.items()}
    tmp = out + ".part"
    save_file(tensors, tmp, metadata={"assetloom": "random weights, SD1.5 shape, for wire tests only"})
    os.replace(tmp, out)
    print(f"{len(tensors)} tensors, {os.path.getsize(out) / 1e6:.0f} MB: {out}")


if __name__ == "__main__":
    main(OUT)
