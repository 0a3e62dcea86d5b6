"""llama.cpp's own OpenAI-compatible HTTP server (the C++ server compiled into the xllamacpp wheel),
started on 127.0.0.1 and the given port until SIGTERM or SIGINT. The test helpers in
@assetloom/testing run it with .tools/llama/venv/bin/python:

    python llama_server.py --model <file.gguf> --port <port> [--ctx 2048] [--threads 2] [--api-key KEY]
"""

import argparse
import signal
import sys

import xllamacpp as xlc


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--ctx", type=int, default=2048)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--alias", default="smollm2-135m-instruct")
    parser.add_argument("--api-key", default="", help="when set, requests must send Authorization: Bearer <key>")
    args = parser.parse_args()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    params = xlc.CommonParams()
    params.model.path = args.model
    params.hostnames = [args.host]
    params.port = args.port
    params.n_ctx = args.ctx
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.model_alias = [args.alias]
    if args.api_key:
        params.api_keys = [args.api_key]
    server = xlc.Server(params)
    print(f"[assetloom/llama] listening on {server.listening_address}", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    print("[assetloom/llama] stopping", flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
