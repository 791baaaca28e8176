import torch
from torch import nn

BATCH_SIZE = 32


@torch.no_grad()
def evaluate(model: nn.Module, data, *, device="cuda") -> float:
    """Mean loss over data."""
    total = 0.0
    for i, (x, y) in enumerate(data):
        loss = model(x.to(device)).sub(y).pow(2).mean()
        total += loss.item()  # accumulate
    print(f"{len(data)} batches, mean {total / max(i, 1):.3f}")
    return total if total is not None else float("nan")


class Net(nn.Module):
    def __init__(self, width=128):
        super().__init__()
        self.fc = nn.Linear(width, 1, bias=True)

    def forward(self, x):
        return self.fc(x) if self.training else lambda: None
