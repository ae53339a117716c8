#!/usr/bin/env bash
# One prepared GPU check (issue 11), under 8 minutes on one H200:
#  1. benchmarks/gpu_train.py: continue training the embedded NLI model from the shipped int8 graph
#     on the carried data (data/nli_gpu: nli_data.py + nli_doc_pairs.py output, gzipped), two data
#     mixes, each exported to int8 ONNX in parts that fit what comes back (gpu_train.json says how);
#  2. benchmarks/gpu_bench.py: torch throughput and GPU memory over lengths 64/128/256 x batches
#     32..1024 x fp32/fp16/bf16 (gpu_check.json).
# Writes to $OUT when set (the device tool's folder that comes back), else benchmarks/results/.
#
#   bash benchmarks/gpu_check.sh                 # on the GPU machine (python3 of its image)
#   bash benchmarks/gpu_check.sh --cpu-smoke     # here: same code paths, tiny sizes, about two minutes
#
# Prepare the data first (here, where pip reaches the registries):
#   python benchmarks/nli_data.py && python benchmarks/nli_doc_pairs.py
#   mkdir -p data/nli_gpu && for f in train doc_train snli_val snli_test; do
#     gzip -c data/nli/$f.jsonl > data/nli_gpu/$f.jsonl.gz; done
set -euo pipefail
cd "$(dirname "$0")/.."
out_dir="${OUT:-benchmarks/results}"
mkdir -p "$out_dir"
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
data="${GPU_DATA:-data/nli_gpu}"

if [[ "${1:-}" == "--cpu-smoke" ]]; then
  shift
  # The project's venv where there is one (this machine); the GPU image has no venv.
  py="${PYTHON:-$( [[ -x .venv/bin/python ]] && echo .venv/bin/python || echo python3 )}"
  "$py" benchmarks/gpu_train.py --device cpu --data-dir "$data" --limit 200 --eval-limit 100 --epochs 1 \
    --agreement-pairs 20 --log-every 5 --budget-s 200 --out-dir "$out_dir" --out-name gpu_train_cpu_smoke.json
  rm -f "$out_dir"/*.int8.onnx.part*
  exec "$py" benchmarks/gpu_bench.py --device cpu --lengths 16,32 --batches 4,8 --dtypes fp32 \
    --warmup 1 --iters 3 --min-seconds 0 --budget-s 60 --smoke --out-dir "$out_dir" --out-name gpu_check_cpu_smoke.json "$@"
fi

py="${PYTHON:-python3}"
nvidia-smi >"$out_dir/nvidia-smi.txt" 2>&1 || echo "nvidia-smi not found" >"$out_dir/nvidia-smi.txt"
# Each Python side keeps to its --budget-s; the timeouts are the backstops (about 410 s in all).
timeout --signal=INT --kill-after=10 300 "$py" benchmarks/gpu_train.py --device cuda --data-dir "$data" \
  --out-dir "$out_dir" --budget-s 265 || echo "gpu_train.py failed or timed out (exit $?); the sweep still runs"
exec timeout --signal=INT --kill-after=10 110 "$py" benchmarks/gpu_bench.py --device cuda --out-dir "$out_dir" \
  --budget-s 90 --min-seconds 0.5 "$@"
