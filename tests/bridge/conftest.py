import sys
from pathlib import Path

# Make the shared helpers in bridge_wire.py importable whatever the import mode.
sys.path.insert(0, str(Path(__file__).parent))
