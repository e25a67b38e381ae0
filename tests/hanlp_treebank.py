"""A small Chinese dependency treebank written by this team for the HanLP backend tests.

One sentence per line; tokens are ``word/jieba-tag/head/relation`` (head 1-based, 0 = root), ``~``
stands for a space inside a word (``Galaxy~S24~Ultra``). Tokens and tags follow the project's
segmenter (``lexicon.segmenter`` + the built-in Latin merge) so the model sees at training time what
it sees at run time. Relations are Stanford-style Chinese dependencies as CTB-trained HanLP models
emit them: nsubj top csubj dobj attr ccomp assmod assm nn amod det clf nummod rcmod cpm advmod mmod
neg tmod prep pobj loc lobj asp conj cc punct dep root. Conventions: a modal (能 要 想 需要 + verb)
is ``mmod`` of the verb; 是 is the root with an ``attr``; sentence particles (吗 呢) are ``dep`` of the
root; in ``A 和 B`` the first conjunct heads ``cc`` and ``conj``; 这/那/该/这个 are ``det``.
Domains: products and e-commerce, insurance, devops, travel and city services.
"""

from __future__ import annotations

from pathlib import Path

TREEBANK = """
它/r/3/assmod 的/uj/1/assm 保修期/nz/4/nsubj 是/v/0/root 多久/m/4/attr
华为/nr/2/nn 手机/n/4/assmod 的/uj/2/assm 电池/n/5/nsubj 怎么样/r/0/root
这/r/3/det 款/m/3/clf 手机/n/4/nsubj 支持/v/0/root 无线/n/6/nn 充电/v/4/dobj 吗/y/4/dep
我/r/3/nsubj 想/v/3/mmod 买/v/0/root 一台/m/5/nummod 笔记本电脑/n/3/dobj
苹果/n/5/top 和/c/1/cc 三星/nz/1/conj 哪个/r/5/nsubj 更好/d/0/root
Galaxy~S24~Ultra/eng/3/assmod 的/uj/1/assm 屏幕/n/5/nsubj 多/m/5/advmod 大/a/0/root
保修/nz/2/top 多久/m/0/root
需要/v/0/root 多少钱/nr/1/dobj
怎么/r/2/advmod 更新/d/0/root 系统/n/2/dobj
能/v/2/mmod 退货/nz/0/root 吗/y/2/dep
这个/r/3/nsubj 怎么/r/3/advmod 部署/nz/0/root
明天/t/0/root 呢/y/1/dep
订单/n/5/nsubj 什么/r/3/det 时候/n/5/tmod 能/v/5/mmod 到/v/0/root
退货/nz/2/nsubj 需要/v/0/root 什么/r/4/det 条件/n/2/dobj
运费/nz/4/nsubj 由/p/4/prep 谁/r/2/pobj 承担/v/0/root
快递/nz/4/nsubj 几天/m/4/tmod 能/v/4/mmod 到/v/0/root
优惠券/nz/4/nsubj 能/v/4/mmod 叠加/v/4/advmod 使用/v/0/root 吗/y/4/dep
这件/mq/2/det 衣服/n/3/nsubj 有/v/0/root 黑色/n/3/dobj 和/c/4/cc 白色/n/4/conj 两种/m/4/nummod
重疾险/nz/3/assmod 的/uj/1/assm 等待期/nz/4/nsubj 是/v/0/root 多少/m/6/nummod 天/q/4/attr
理赔/nz/3/top 需要/v/3/mmod 提交/v/0/root 哪些/r/5/det 材料/n/3/dobj
安心福终身寿险/nz/2/nsubj 保障/v/0/root 什么/r/2/dobj
意外险/nz/4/nsubj 和/c/1/cc 医疗险/n/1/conj 有/v/0/root 什么/r/6/det 区别/n/4/dobj
投保年龄/nz/2/nsubj 有/v/0/root 限制/v/2/dobj 吗/y/2/dep
犹豫期/nz/2/lobj 内/n/3/loc 退保/nz/4/nsubj 有/v/0/root 损失/n/4/dobj 吗/y/4/dep
他/r/3/assmod 的/uj/1/assm 保单/nz/6/nsubj 什么/r/5/det 时候/n/6/tmod 到期/d/0/root
怎么/r/2/advmod 查看/v/0/root pod/eng/4/nn 日志/nz/2/dobj
Docker/eng/2/nn 容器/nz/3/nsubj 启动失败/nz/0/root
如何/r/2/advmod 配置/nz/0/root Nginx/eng/4/nn 反向代理/nz/2/dobj ？/x/2/punct
Kubernetes/eng/2/nn 集群/nz/5/assmod 的/uj/2/assm 节点/n/5/nn 状态/n/6/nsubj 异常/nz/0/root
Python~3.12/eng/2/nsubj 有/v/0/root 哪些/r/5/det 新/a/5/amod 特性/n/2/dobj
数据库/nz/2/nn 连接/v/3/nsubj 超时/nz/0/root 怎么办/l/3/dep
服务器/n/2/nsubj 内存不足/i/0/root
前者/n/3/assmod 的/uj/1/assm 价格/n/5/nsubj 更/d/5/advmod 低/a/0/root
后者/n/2/nsubj 支持/v/0/root 私有/b/4/amod 部署/nz/2/dobj 吗/y/2/dep
北京/ns/2/nsubj 到/v/6/rcmod 上海/ns/2/dobj 的/uj/2/cpm 高铁/n/6/nn 票/n/7/nsubj 多少钱/nr/0/root
深圳/ns/4/assmod 的/uj/1/assm 落户/nz/4/nn 条件/n/5/nsubj 是/v/0/root 什么/r/5/attr
广州/ns/0/root 呢/y/1/dep
一等/m/2/nummod 座/q/0/root 呢/y/2/dep
这/r/3/det 两个/m/3/nummod 产品/n/4/nsubj 有/v/0/root 什么/r/6/det 区别/n/4/dobj
我/r/3/assmod 的/uj/1/assm 订单/n/6/nsubj 还/d/6/advmod 没有/v/6/neg 收到/v/0/root
客服/n/2/nn 电话/n/3/nsubj 是/v/0/root 多少/m/3/attr
这个/r/2/det 版本/n/3/nsubj 修复/v/0/root 了/ul/3/asp 哪些/r/6/det 问题/n/3/dobj
Redis/eng/5/assmod 和/c/1/cc MySQL/eng/1/conj 的/uj/1/assm 区别/n/6/nsubj 是/v/0/root 什么/r/6/attr
如何/r/2/advmod 升级/nz/0/root 到/v/2/prep 最新/d/5/amod 版本/n/3/pobj
它们/r/3/nsubj 都/d/3/advmod 支持/v/0/root 5G/eng/3/dobj 吗/y/3/dep
那个/r/2/det 型号/n/3/nsubj 还有/v/0/root 货/n/3/dobj 吗/y/3/dep
发票/n/3/nsubj 怎么/r/3/advmod 开/v/0/root
iPhone~15/eng/9/top 、/x/1/punct 小米14/nz/1/conj 和/c/1/cc 华为/nr/6/nn Mate~60/eng/1/conj 哪个/r/8/nsubj 拍照/v/9/csubj 好/a/0/root
我/r/3/nsubj 昨天/t/3/tmod 买/v/5/rcmod 的/uj/3/cpm 耳机/n/6/nsubj 坏/a/0/root 了/ul/6/asp
这份/mq/2/det 保单/nz/4/assmod 的/uj/2/assm 受益人/nz/5/nsubj 是/v/0/root 谁/r/5/attr
部署/nz/2/lobj 之后/f/4/loc 服务/vn/4/nsubj 访问/v/0/root 不了/v/4/dep
它/r/2/nsubj 支持/v/0/root 防水/v/2/dobj 吗/y/2/dep
他们/r/3/assmod 的/uj/1/assm 客服/n/5/nsubj 几点/m/5/tmod 下班/v/0/root
这个/r/2/det 套餐/n/3/nsubj 包含/v/0/root 哪些/r/5/det 流量/n/3/dobj
该/r/2/det 产品/n/4/assmod 的/uj/2/assm 质保期/nz/5/nsubj 是/v/0/root 两年/m/5/attr
京东/nt/6/top 和/c/1/cc 淘宝/nt/1/conj 哪个/r/5/nsubj 发货/nz/6/csubj 快/a/0/root
保险公司/nz/2/nsubj 拒绝/v/0/root 理赔/nz/2/dobj 怎么办/l/2/dep
我/r/3/nsubj 要/v/3/mmod 取消订单/nz/0/root
电脑/n/2/nn 开机/n/3/nsubj 很慢/d/0/root ，/x/3/punct 怎么/r/6/advmod 处理/v/3/conj ？/x/3/punct
这个/r/2/det 接口/nz/3/nsubj 返回/v/0/root 500/eng/5/nn 错误/nz/3/dobj
王经理/nr/2/nsubj 负责/v/0/root 这个/r/4/det 项目/n/2/dobj
上海/ns/3/assmod 的/uj/1/assm 房价/n/4/nsubj 是/v/0/root 多少/m/4/attr
小米14/nz/2/nsubj 有/v/0/root 几种/m/4/nummod 颜色/n/2/dobj
Galaxy~S24~Ultra/eng/3/assmod 的/uj/1/assm 保修期/nz/4/nsubj 是/v/0/root 一年/m/4/attr
"""


def sentences() -> list[list[tuple[str, str, int, str]]]:
    """The treebank as lists of (word, tag, head, relation)."""
    out = []
    for line in TREEBANK.strip().splitlines():
        sent = []
        for cell in line.split():
            word, tag, head, rel = cell.rsplit("/", 3)
            sent.append((word.replace("~", " "), tag, int(head), rel))
        out.append(sent)
    return out


def write_conll(path: Path, *, fmt: str = "conllx") -> Path:
    """Write the treebank as CoNLL-X (FORM, CPOS=POS, HEAD, DEPREL) or CoNLL-U (UPOS=XPOS)."""
    lines = []
    for n, sent in enumerate(sentences(), 1):
        if fmt == "conllu":
            lines.append(f"# sent_id = {n}")
            lines.append("# text = " + "".join(w for w, _t, _h, _r in sent))
        for i, (word, tag, head, rel) in enumerate(sent, 1):
            lines.append(f"{i}\t{word}\t{word}\t{tag}\t{tag}\t_\t{head}\t{rel}\t_\t_")
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
