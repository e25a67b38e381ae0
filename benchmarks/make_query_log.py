"""Write a realistic synthetic query log for the benchmarks (deterministic, seeded).

What: >= 100k JSONL records ``{"query", "kind", "session"?}`` built from templates and vocabulary
written for this benchmark (four domains: insurance, e-commerce, tech, enterprise). The mix:

- ``complete``   self-contained, well-formed questions (should pass untouched: zero-rewrite);
- ``precise``    short precise look-ups (error codes, order numbers, function names, versions);
- ``colloquial`` colloquial / abbreviated / full-width / traditional phrasing (normalise, expand);
- ``multi``      several questions in one message;
- ``followup``   later turns of a session (pronouns, ellipsis) — the record carries ``session``,
  so ``rulerewrite batch`` and the benchmark give it the session's earlier queries as history.

Usage: ``python benchmarks/make_query_log.py [-n 120000] [--seed 7] [-o benchmarks/data/query_log.jsonl]``
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "query_log.jsonl"

# -- vocabulary (written for this benchmark) ---------------------------------------------------

DOMAINS: dict[str, dict[str, list[str]]] = {
    "insurance": {
        "thing": [
            "安心福终身寿险",
            "平安福",
            "重疾险",
            "百万医疗险",
            "车险",
            "意外险",
            "少儿医保",
            "定期寿险",
            "养老年金险",
            "惠民保",
        ],
        "topic": [
            "等待期",
            "免赔额",
            "保费",
            "理赔流程",
            "犹豫期",
            "退保手续费",
            "保障范围",
            "续保条件",
            "现金价值",
            "投保年龄",
        ],
        "verb": ["退保", "理赔", "续保", "加保", "减保", "报案"],
        "colloq": [
            "保单怎么退",
            "这玩意能退不",
            "不想买了能退钱吗",
            "住院了咋报销",
            "车被刮了找谁赔",
            "保险到期了咋整",
            "交不起保费了怎么办",
            "退休以后还能续保吗",
            "能不能少交点",
        ],
    },
    "ecommerce": {
        "thing": [
            "iPhone 15 Pro",
            "Galaxy S24 Ultra",
            "iPad Air",
            "MacBook Air",
            "小米14",
            "华为 Mate 60",
            "AirPods Pro",
            "戴森吹风机",
            "Switch OLED",
            "索尼 WH-1000XM5",
        ],
        "topic": [
            "保修期",
            "价格",
            "颜色",
            "续航",
            "发货时间",
            "退货政策",
            "以旧换新",
            "分期免息",
            "内存版本",
            "尺寸",
        ],
        "verb": ["退货", "换货", "退款", "开发票", "改地址", "催发货"],
        "colloq": [
            "这玩意能退不",
            "咋还没发货",
            "买贵了能退差价不",
            "东西坏了找谁",
            "包装破了能换吗",
            "七天无理由咋弄",
            "能便宜点不",
            "啥时候到货",
            "发票咋开",
        ],
    },
    "tech": {
        "thing": [
            "Kubernetes",
            "Docker",
            "Python",
            "PostgreSQL",
            "Redis",
            "Nginx",
            "Kafka",
            "Elasticsearch",
            "TensorFlow",
            "Git",
        ],
        "topic": [
            "日志",
            "内存占用",
            "连接超时",
            "权限配置",
            "版本升级",
            "性能调优",
            "备份恢复",
            "集群部署",
            "环境变量",
            "端口冲突",
        ],
        "verb": ["安装", "部署", "重启", "升级", "回滚", "卸载"],
        "colloq": [
            "k8s 咋看 pod 日志",
            "py 怎么装包",
            "pg 连不上咋办",
            "es 查询好慢",
            "docker 起不来",
            "git 回退上一版咋弄",
            "redis 内存爆了",
            "tf 跑不动",
            "nginx 配个反代咋写",
        ],
    },
    "enterprise": {
        "thing": [
            "年假",
            "报销",
            "OA系统",
            "考勤",
            "公积金",
            "差旅标准",
            "绩效考核",
            "入职手续",
            "离职交接",
            "加班调休",
        ],
        "topic": [
            "审批流程",
            "申请条件",
            "额度",
            "截止时间",
            "所需材料",
            "负责部门",
            "规定",
            "计算方式",
            "适用范围",
            "常见问题",
        ],
        "verb": ["申请", "提交", "审批", "撤回", "查询", "修改"],
        "colloq": [
            "请假咋请",
            "报销要啥材料",
            "打卡忘了咋办",
            "年假能攒到明年不",
            "出差住宿能报多少",
            "公积金咋取",
            "工资条在哪看",
            "加班有钱不",
            "离职要提前多久说",
        ],
    },
}

COMPLETE = [
    "{thing}的{topic}是多少",
    "{thing}的{topic}是什么",
    "{thing}的{topic}怎么计算",
    "如何查询{thing}的{topic}",
    "{thing}{topic}的具体规定",
    "{thing}支持{verb}吗",
    "{thing}怎么{verb}",
    "{thing}{verb}需要什么材料",
    "{thing}的{topic}有哪些",
    "{thing} {topic}",
]
MULTI = [
    "{thing}的{topic}是多少？{topic2}呢？",
    "{thing}多少钱？有几种颜色？",
    "{thing}怎么{verb}，{topic}是多久",
    "{thing}和{thing2}有什么区别",
    "{thing}的{topic}和{topic2}分别是多少",
    "{thing}能{verb}吗？需要多久？另外{topic2}怎么算？",
]
FOLLOWUP = [
    "它的{topic2}呢",
    "那{thing2}呢",
    "它{verb}需要多久",
    "这个{topic2}是多少",
    "{topic2}呢",
    "它和{thing2}比哪个好",
    "那个能{verb}吗",
    "还有别的吗",
]
FILLERS = ["请问", "呃", "那个", "我想问一下", "你好，", "麻烦问下"]
PRECISE = [
    "ERR-{n4}",
    "E{n4}",
    "0x{hex}",
    "订单号 {n12}",
    "{n14}",
    "os.path.join()",
    "pandas.read_csv",
    "get_user_info",
    "v{n1}.{n1}.{n2}",
    "Python 3.{n1}",
    "HTTP {http}",
    "SKU-{n6}",
    "--max-old-space-size",
]
_FULLWIDTH = {
    c: chr(ord(c) + 0xFEE0)
    for c in "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
}
_TRAD = str.maketrans({"险": "險", "费": "費", "么": "麼", "发": "發", "货": "貨", "这": "這", "个": "個",
                       "请": "請", "问": "問", "时": "時", "间": "間", "报": "報", "销": "銷"})  # fmt: skip


def _fill(rng: random.Random, tpl: str, d: dict[str, list[str]], fixed: str | None = None) -> str:
    thing, thing2 = rng.sample(d["thing"], 2)
    if fixed is not None:
        thing, thing2 = fixed, (thing if thing != fixed else thing2)
    topic, topic2 = rng.sample(d["topic"], 2)
    return tpl.format(
        thing=thing, thing2=thing2, topic=topic, topic2=topic2, verb=rng.choice(d["verb"])
    )


def _precise(rng: random.Random) -> str:
    tpl = rng.choice(PRECISE)
    return tpl.format(
        n1=rng.randint(1, 12),
        n2=rng.randint(0, 30),
        n4=rng.randint(1000, 9999),
        n6=rng.randint(100000, 999999),
        n12=rng.randint(10**11, 10**12 - 1),
        n14=rng.randint(10**13, 10**14 - 1),
        hex=f"{rng.randint(0x1000, 0xFFFFFF):x}",
        http=rng.choice([400, 401, 403, 404, 500, 502, 503]),
    )


def _noisy(rng: random.Random, q: str) -> str:
    """Colloquial surface noise: fillers, full width, traditional characters, doubled marks."""
    r = rng.random()
    if r < 0.3:
        q = rng.choice(FILLERS) + q
    elif r < 0.45:
        q = "".join(_FULLWIDTH.get(c, c) for c in q)
    elif r < 0.6:
        q = q.translate(_TRAD)
    elif r < 0.7:
        q = q.rstrip("？?") + "？？"
    elif r < 0.8:
        q = q.replace("的", " 的 ", 1)
    return q


def generate(n: int, seed: int = 7) -> list[dict[str, str]]:
    """``n`` records, the same for the same ``seed``."""
    rng = random.Random(seed)
    names = sorted(DOMAINS)
    out: list[dict[str, str]] = []
    session_no = 0
    while len(out) < n:
        d = DOMAINS[rng.choice(names)]
        r = rng.random()
        if r < 0.38:
            out.append({"query": _fill(rng, rng.choice(COMPLETE), d), "kind": "complete"})
        elif r < 0.48:
            out.append({"query": _precise(rng), "kind": "precise"})
        elif r < 0.70:
            base = (
                rng.choice(d["colloq"])
                if rng.random() < 0.6
                else _fill(rng, rng.choice(COMPLETE), d)
            )
            out.append({"query": _noisy(rng, base), "kind": "colloquial"})
        elif r < 0.80:
            out.append({"query": _fill(rng, rng.choice(MULTI), d), "kind": "multi"})
        else:  # a session: one complete opener and 1-3 follow-ups about the same thing
            session_no += 1
            sid = f"s{session_no:06d}"
            thing = rng.choice(d["thing"])
            opener = _fill(rng, rng.choice(COMPLETE[:9]), d, fixed=thing)
            out.append({"query": opener, "kind": "complete", "session": sid})
            for _ in range(rng.randint(1, 3)):
                out.append(
                    {
                        "query": _fill(rng, rng.choice(FOLLOWUP), d, fixed=thing),
                        "kind": "followup",
                        "session": sid,
                    }
                )
    return out[:n]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("-n", type=int, default=120_000, help="records to write (default 120000)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    recs = generate(args.n, args.seed)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w", encoding="utf-8") as fh:
        for rec in recs:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(f"wrote {len(recs)} records to {args.output}")


if __name__ == "__main__":
    main()
