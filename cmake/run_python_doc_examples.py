"""Runs every ```python block of the given Markdown files, in order, each file in one fresh namespace, so a
later block may use an earlier block's names. A block whose fence is preceded by the line
`<!-- example: not run: <reason> -->` is skipped (the reason is required). Any exception fails the run,
naming the file and the block's first line. Run by the ctest trnsci.docs.python_examples.
"""
import re
import sys
import traceback

failed = 0
ran = 0
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    namespace = {"__name__": "__doc_example__"}
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            start = i + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            marker = lines[i - 1].strip() if i > 0 else ""
            skip = re.match(r"<!-- example: not run: (.+) -->", marker)
            if marker.startswith("<!-- example: not run") and not skip:
                print(f"{path}:{i}: 'not run' marker without a reason")
                failed += 1
            elif not skip:
                code = "\n" * start + "\n".join(lines[start:end])
                try:
                    exec(compile(code, path, "exec"), namespace)
                    ran += 1
                except Exception:
                    failed += 1
                    print(f"{path}:{start + 1}: the example failed:")
                    traceback.print_exc()
            i = end + 1
        else:
            i += 1
print(f"python doc examples: {ran} ran, {failed} failed")
sys.exit(1 if failed or ran == 0 else 0)
