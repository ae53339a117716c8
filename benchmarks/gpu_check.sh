#!/usr/bin/env bash
# One prepared GPU check (issue 11): torch throughput and GPU memory of the embedded NLI model over
# lengths 64/128/256 x batches 32..1024 x fp32/fp16/bf16, then optional further training if the
# data is in the tree. Under 8 minutes on one H200. Writes gpu_check.json (and nvidia-smi.txt) to
# $OUT when set (the device tool's folder that comes back), else benchmarks/results/.
#
#   bash benchmarks/gpu_check.sh                 # on the GPU machine (python3 of its image)
#   bash benchmarks/gpu_check.sh --cpu-smoke     # here: same code path, tiny sizes, about a minute
#   bash benchmarks/gpu_check.sh --budget-s 300  # extra flags go to benchmarks/gpu_bench.py
set -euo pipefail
cd "$(dirname "$0")/.."
out_dir="${OUT:-benchmarks/results}"
mkdir -p "$out_dir"
export PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=false HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1

if [[ "${1:-}" == "--cpu-smoke" ]]; then
  shift
  # The project's venv where there is one (this machine); the GPU image has no venv.
  py="${PYTHON:-$( [[ -x .venv/bin/python ]] && echo .venv/bin/python || echo python3 )}"
  exec "$py" benchmarks/gpu_bench.py --device cpu --lengths 16,32 --batches 4,8 --dtypes fp32 \
    --warmup 1 --iters 3 --min-seconds 0 --budget-s 90 --train-steps 3 --train-batch 4 --min-train-s 5 \
    --smoke --out-dir "$out_dir" --out-name gpu_check_cpu_smoke.json "$@"
fi

py="${PYTHON:-python3}"
nvidia-smi >"$out_dir/nvidia-smi.txt" 2>&1 || echo "nvidia-smi not found" >"$out_dir/nvidia-smi.txt"
# The Python side keeps to --budget-s (default 450 s); the timeout is the backstop under 8 minutes.
exec timeout --signal=INT --kill-after=10 470 "$py" benchmarks/gpu_bench.py --device cuda --out-dir "$out_dir" "$@"
