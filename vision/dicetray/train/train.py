#!/usr/bin/python3
"""Train the dice tray's learned reader (dicenet.onnx) on the real dice photos.

Data: vision/dicetray/testdata/dice-photos (200 phone photos, 1,487 labelled
dice, BSD-3, from nell-byler/dice_detection; see its README). The split is
fixed by the photos' sorted names, index i from 0:
  i % 5 == 0  held-out test: never trained on, never tuned on (the Go test
              reports on it);
  i % 5 == 1  calibration: the temperature and the thresholds are chosen
              on it, never trained on;
  otherwise   training.

The net is a small fully convolutional one (CenterNet-like): from a BGR
frame it gives, every 8 pixels, the chance a die's top face is centred
there, the centre's offset within the cell, the die's side and the
face's value (1-6). Debian's python3-torch on the CPU; a few minutes.

Run from the repository's root:
  /usr/bin/python3 vision/dicetray/train/train.py   (Debian's python3, its packages)
It writes vision/dicetray/model/dicenet.onnx and dicenet.json.
`make test` never runs this.
"""
import csv, json, math, os, random, sys, time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "testdata", "dice-photos")
OUT = os.path.join(ROOT, "model")
STRIDE = 4  # the finder's cell on its half-size frame
WIN = 1.3  # the face window, in die sides
CROP = int(os.environ.get("CROP", "28"))  # the face window, pixels a side (model.json's "crop")
VALUES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
SEED = 32


def load():
    boxes = {}
    with open(os.path.join(DATA, "labels.csv")) as f:
        for r in csv.DictReader(f):
            boxes.setdefault(r["image"], []).append(
                (int(r["xmin"]), int(r["ymin"]), int(r["xmax"]), int(r["ymax"]), VALUES[r["value"]]))
    # label-fixes.csv (testdata/dice-photos/SOURCE.md): a die the labels
    # lack (was empty), or the true value of a labelled one
    with open(os.path.join(DATA, "label-fixes.csv")) as f:
        for r in csv.DictReader(f):
            box = (int(r["xmin"]), int(r["ymin"]), int(r["xmax"]), int(r["ymax"]))
            dice = boxes.setdefault(r["image"], [])
            if r["was"]:
                dice[:] = [b[:4] + (VALUES[r["value"]],) if b[:4] == box else b for b in dice]
            else:
                dice.append(box + (VALUES[r["value"]],))
    names = sorted(n for n in os.listdir(DATA) if n.lower().endswith(".jpg"))
    split = {"test": [], "calib": [], "train": []}
    for i, n in enumerate(names):
        key = "test" if i % 5 == 0 else "calib" if i % 5 == 1 else "train"
        split[key].append((n, cv2.imread(os.path.join(DATA, n)), boxes.get(n, [])))
    return split


def cbr(i, o, s=1, d=1):
    return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Finder(nn.Module):
    """Where the dice are: on a half-size frame, every 4 of its pixels (8
    of the frame's), the chance a die is centred there, the centre's offset
    in the cell and the die's side."""

    def __init__(self, w=24):
        super().__init__()
        self.body = nn.Sequential(cbr(3, 12, 2), cbr(12, w, 2), cbr(w, w), cbr(w, w, d=2), cbr(w, w, d=4), cbr(w, w))
        self.head = nn.Conv2d(w, 4, 1)  # heat, dx, dy, log(side/32)
        self.head.bias.data[0] = -4.0

    def forward(self, x):
        return self.head(self.body(x / 255.0 - 0.5))


class Face(nn.Module):
    """What a die shows: a 32x32 window of the full-size frame, 1.3 sides
    wide around a found centre: the face's value 1-6, or not a die."""

    def __init__(self):
        super().__init__()
        w = int(os.environ.get("FACE_WIDTH", "16"))
        self.body = nn.Sequential(cbr(3, w), nn.MaxPool2d(2), cbr(w, 2 * w), cbr(2 * w, 2 * w), nn.MaxPool2d(2),
                                  cbr(2 * w, 4 * w), cbr(4 * w, 4 * w), nn.MaxPool2d(2), cbr(4 * w, 6 * w), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                  nn.Dropout(0.2), nn.Linear(6 * w, 7))

    def forward(self, x):
        return self.body(x / 255.0 - 0.5)


def targets(boxes, h, w):
    """The finder's maps for boxes given in its input's pixels."""
    gh, gw = h // STRIDE, w // STRIDE
    heat = np.zeros((gh, gw), np.float32)
    reg = np.zeros((3, gh, gw), np.float32)
    mask = np.zeros((gh, gw), np.float32)
    ys, xs = np.ogrid[:gh, :gw]
    for x0, y0, x1, y1, v in boxes:
        cx, cy, side = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE, math.sqrt(max(x1 - x0, 1) * max(y1 - y0, 1))
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < gw and 0 <= iy < gh):
            continue
        sig = max(side / STRIDE / 6, 0.5)
        g = np.exp(-((xs + 0.5 - cx) ** 2 + (ys + 0.5 - cy) ** 2) / (2 * sig * sig))
        heat = np.maximum(heat, g)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (cx - ix, cy - iy, math.log(side / 16))
        mask[iy, ix] = 1
    return heat, reg, mask


def photometric(im, rng):
    """Colour, light, blur and noise a camera and a tray may differ by."""
    im = im.astype(np.float32)
    if rng.random() < 0.5:
        im = im[:, :, rng.sample(range(3), 3)]
    if rng.random() < 0.15:
        im[:] = im.mean(2, keepdims=True)
    im = im * rng.uniform(0.6, 1.4) + rng.uniform(-40, 40)
    if rng.random() < 0.3:
        im = cv2.GaussianBlur(im, (0, 0), rng.uniform(0.3, 1.0))
    im += np.float32(rng.uniform(0, 6)) * np.random.default_rng(rng.randint(0, 1 << 30)).standard_normal(im.shape).astype(np.float32)
    return np.clip(im, 0, 255)


def turn(im, keep, size, rng):
    # turns and mirrors keep a face's value
    for _ in range(rng.randint(0, 3)):
        im = np.ascontiguousarray(np.rot90(im))  # (x, y) -> (y, size-x)
        keep = [[y0, size - x1, y1, size - x0, v] for x0, y0, x1, y1, v in keep]
    if rng.random() < 0.5:
        im = np.ascontiguousarray(im[:, ::-1])
        keep = [[size - x1, y0, size - x0, y1, v] for x0, y0, x1, y1, v in keep]
    return im, keep


def finder_sample(img, boxes, size, rng):
    s = 0.5 * rng.uniform(0.6, 1.6)
    im = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    bx = [(x0 * s, y0 * s, x1 * s, y1 * s, v) for x0, y0, x1, y1, v in boxes]
    h, w = im.shape[:2]
    if h < size or w < size:
        pad = np.zeros((max(h, size), max(w, size), 3), np.uint8)
        pad[:] = im.reshape(-1, 3).mean(0)
        pad[:h, :w] = im
        im, h, w = pad, pad.shape[0], pad.shape[1]
    x, y = rng.randint(0, w - size), rng.randint(0, h - size)
    im = im[y:y + size, x:x + size]
    keep = []
    for x0, y0, x1, y1, v in bx:
        x0, x1, y0, y1 = x0 - x, x1 - x, y0 - y, y1 - y
        if 0 <= (x0 + x1) / 2 < size and 0 <= (y0 + y1) / 2 < size:
            keep.append([x0, y0, x1, y1, v])
    im, keep = turn(im, keep, size, rng)
    return photometric(im, rng), keep


def crop(img, cx, cy, side):
    """The face window: WIN sides square around (cx, cy), the frame's edge
    repeated outside it, resized to CROP x CROP (area interpolation). The
    Go reader (learned.go) cuts the same window."""
    half = WIN * side / 2
    x0, y0 = int(round(cx - half)), int(round(cy - half))
    n = max(int(round(2 * half)), 4)
    h, w = img.shape[:2]
    xs = np.clip(np.arange(x0, x0 + n), 0, w - 1)
    ys = np.clip(np.arange(y0, y0 + n), 0, h - 1)
    win = img[ys][:, xs]
    return cv2.resize(win, (CROP, CROP), interpolation=cv2.INTER_AREA if n > CROP else cv2.INTER_LINEAR)


def crop_turned(img, cx, cy, side, angle):
    """The face window as crop() cuts it, turned by angle degrees about its
    centre: the window's area scaled to CROP first (as crop() does), then
    turned at that scale, so the pixels look as the Go reader's do."""
    half = WIN * side / 2 * 1.5
    x0, y0 = int(round(cx - half)), int(round(cy - half))
    n = max(int(round(2 * half)), 6)
    h, w = img.shape[:2]
    xs = np.clip(np.arange(x0, x0 + n), 0, w - 1)
    ys = np.clip(np.arange(y0, y0 + n), 0, h - 1)
    big = int(round(CROP * 1.5))
    win = cv2.resize(img[ys][:, xs], (big, big), interpolation=cv2.INTER_AREA if n > big else cv2.INTER_LINEAR)
    c = (cx - x0) * big / n, (cy - y0) * big / n
    m = cv2.getRotationMatrix2D(c, angle, 1.0)
    m[0, 2] += CROP / 2 - c[0]
    m[1, 2] += CROP / 2 - c[1]
    return cv2.warpAffine(win, m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def face_samples(data, rng, per_die):
    xs, ys = [], []
    for name, img, boxes in data:
        cs = [((x0 + x1) / 2, (y0 + y1) / 2, math.sqrt((x1 - x0) * (y1 - y0))) for x0, y0, x1, y1, v in boxes]
        med = float(np.median([c[2] for c in cs])) if cs else 40.0
        for (cx, cy, side), b in zip(cs, boxes):
            for _ in range(per_die):
                j = rng.uniform(-0.12, 0.12) * side, rng.uniform(-0.12, 0.12) * side
                sd = side * rng.uniform(0.85, 1.2)
                if rng.random() < 0.5:
                    xs.append(crop_turned(img, cx + j[0], cy + j[1], sd, rng.uniform(0, 360)))
                else:
                    xs.append(crop(img, cx + j[0], cy + j[1], sd))
                ys.append(b[4] - 1)
            # beside a die: not a die (unless another die's centre is there)
            for _ in range(per_die // 2):
                a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.7, 1.1) * side
                px, py = cx + r * math.cos(a), cy + r * math.sin(a)
                if all(math.hypot(px - qx, py - qy) > 0.4 * qs for qx, qy, qs in cs):
                    xs.append(crop(img, px, py, side * rng.uniform(0.85, 1.2))); ys.append(6)
        h, w = img.shape[:2]
        for _ in range(per_die * 2):
            side = med * rng.uniform(0.7, 1.4)
            px, py = rng.uniform(0, w), rng.uniform(0, h)
            if all(math.hypot(px - qx, py - qy) > 0.45 * qs for qx, qy, qs in cs):
                xs.append(crop(img, px, py, side)); ys.append(6)
    out = []
    for im in xs:
        im, _ = turn(im, [], CROP, rng)
        out.append(photometric(im, rng).transpose(2, 0, 1))
    return torch.from_numpy(np.stack(out)), torch.tensor(ys)


def focal(pred, gt):
    p = torch.sigmoid(pred).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    lp = torch.log(p) * (1 - p) ** 2 * pos
    ln = torch.log(1 - p) * p ** 2 * (1 - gt) ** 4 * (1 - pos)
    return -(lp.sum() + ln.sum()) / pos.sum().clamp(min=1)


def train_finder(train, steps, rng):
    net = Finder()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=steps, pct_start=0.1)
    t0 = time.time()
    net.train()
    for step in range(steps):
        xs, hs, rs, ms = [], [], [], []
        for _ in range(12):
            name, img, boxes = train[rng.randrange(len(train))]
            im, bx = finder_sample(img, boxes, 128, rng)
            h, r, m = targets(bx, 128, 128)
            xs.append(im.transpose(2, 0, 1)); hs.append(h); rs.append(r); ms.append(m)
        x, h, r, m = (torch.from_numpy(np.stack(a)) for a in (xs, hs, rs, ms))
        out = net(x)
        lh = focal(out[:, 0], h)
        lr = (F.l1_loss(out[:, 1:4], r, reduction="none").sum(1) * m).sum() / m.sum().clamp(min=1)
        loss = lh + lr
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
        if step % 50 == 0:
            print(f"finder step {step}/{steps} heat {lh.item():.3f} reg {lr.item():.3f} {time.time()-t0:.0f}s", flush=True)
    net.eval()
    return net


def train_face(train, epochs, rng, net=None, each=None):
    net = net or Face()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    t0 = time.time()
    sets = []
    for e in range(epochs):
        x, y = face_samples(train, rng, int(os.environ.get("PER_DIE", "6")))
        if e == 0:
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=epochs * ((len(y) + 63) // 64 + 1), pct_start=0.15)
        net.train()
        perm = torch.randperm(len(y))
        tot = 0
        for i in range(0, len(y), 64):
            idx = perm[i:i + 64]
            loss = F.cross_entropy(net(x[idx]), y[idx])
            opt.zero_grad(); loss.backward(); opt.step(); sched.step()
            tot += loss.item() * len(idx)
        print(f"face epoch {e+1}/{epochs} {len(y)} windows loss {tot/len(y):.4f} {time.time()-t0:.0f}s", flush=True)
        if each:
            net.eval()
            each(net)
    net.eval()
    return net


def face_eval(net, data):
    """The face net on the true centres of one part's dice: how many it
    reads right, and at a chance of at least 0.99 / 0.999 how many it reads
    right and wrong (the rest would be unreadable)."""
    xs, ys = [], []
    for name, img, boxes in data:
        for x0, y0, x1, y1, v in boxes:
            xs.append(crop(img, (x0 + x1) / 2, (y0 + y1) / 2, math.sqrt((x1 - x0) * (y1 - y0))).transpose(2, 0, 1)); ys.append(v - 1)
    x = torch.from_numpy(np.stack(xs)).float()
    with torch.no_grad():
        p = F.softmax(net(x), 1).numpy()
        views = [torch.rot90(x, k, (2, 3)) for k in range(4)]
        views += [torch.flip(v, (3,)) for v in views]
        pt = np.mean([F.softmax(net(v), 1).numpy() for v in views], 0)
    y = np.array(ys)
    report(p, y, "one view")
    report(pt, y, "8 views")
    return np.mean(pt.argmax(1) == y)


def report(p, y, what):
    best, conf = p.argmax(1), p.max(1)
    print(f"{what}: {len(y)} dice: argmax right {np.mean(best == y):.4f}; not-a-die {np.sum(best == 6)}")
    for sure in (0.9, 0.99, 0.999):
        ok = conf >= sure
        print(f"  sure {sure}: right {np.sum(ok & (best == y))} wrong {np.sum(ok & (best != y) & (best != 6))} unread {np.sum(~ok)}")


def export(net, shape, path, out, dynamic):
    """ONNX for OpenCV 4.6's dnn: torch's exporter shares equal constants
    through Identity nodes, which that importer refuses; each gets its
    own copy instead."""
    import onnx
    torch.onnx.export(net, torch.zeros(*shape), path, input_names=["bgr"], output_names=[out], opset_version=11,
                      dynamic_axes={"bgr": {0: "n"}, out: {0: "n"}} if dynamic else None)
    m = onnx.load(path)
    inits = {i.name: i for i in m.graph.initializer}
    keep = []
    for n in m.graph.node:
        if n.op_type == "Identity" and n.input[0] in inits:
            c = onnx.TensorProto()
            c.CopyFrom(inits[n.input[0]])
            c.name = n.output[0]
            m.graph.initializer.append(c)
        else:
            keep.append(n)
    del m.graph.node[:]
    m.graph.node.extend(keep)
    onnx.checker.check_model(m)
    onnx.save(m, path)


def main():
    torch.set_num_threads(int(os.environ.get("THREADS", "1")))
    torch.manual_seed(SEED)
    rng = random.Random(SEED)
    what = sys.argv[1] if len(sys.argv) > 1 else "both"
    split = load()
    os.makedirs(OUT, exist_ok=True)
    if what in ("finder", "both"):
        net = train_finder(split["train"], int(os.environ.get("FINDER_STEPS", "500")), rng)
        torch.save(net.state_dict(), os.path.join(OUT, "finder.pt"))
        export(net, (1, 3, 320, 320), os.path.join(OUT, "finder.onnx"), "maps", False)
    if what in ("face", "both"):
        net = train_face(split["train"], int(os.environ.get("FACE_EPOCHS", "100")), rng, each=(lambda n: face_eval(n, split["calib"])) if os.environ.get("EVAL_EACH") else None)
        torch.save(net.state_dict(), os.path.join(OUT, "face.pt"))
        export(net, (1, 3, CROP, CROP), os.path.join(OUT, "face.onnx"), "logits", True)
    if what == "face-eval":
        net = Face()
        net.load_state_dict(torch.load(os.path.join(OUT, "face.pt")))
        net.eval()
        face_eval(net, split[os.environ.get("PART", "calib")])
    if what == "face-more":
        # more epochs from face.pt (the committed model: "face", then
        # "face-more" with FACE_EPOCHS as in model/README.md)
        net = Face()
        net.load_state_dict(torch.load(os.path.join(OUT, "face.pt")))
        def save(net):
            torch.save(net.state_dict(), os.path.join(OUT, "face.pt"))
            export(net, (1, 3, CROP, CROP), os.path.join(OUT, "face.onnx"), "logits", True)
        train_face(split["train"], int(os.environ.get("FACE_EPOCHS", "6")), random.Random(SEED + 1), net, save)


if __name__ == "__main__":
    main()
